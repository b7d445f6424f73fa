/**
 * Runs planned batches on the CPU over a state: the kernels of one batch, in the same order as the
 * GPU backend dispatches them. Knows nothing of schedules, so the component's Web Worker can run
 * batches planned on the main thread.
 */
import { FoldScratch, prepareMaterials, RiverBandWork, type RiverScratch, runRiverBatch, tileSeam } from "../kernels/index.js";
import { MATERIAL_GRIDS } from "../core/materials.js";
import { COUNTER_COUNT } from "../core/counters.js";
import { cloneState, STATE_GRIDS, type ErosionStateData, type StateGridName } from "../core/erosionState.js";
import { createMaps, type ErosionMaps } from "../core/erosionMaps.js";
import type { PlannedBatch } from "../core/schedule.js";
import { WATER_GRIDS, WATER_VIEW_GRIDS } from "../core/waterModel.js";
import { CPU_OPERATORS, type CpuOperatorContext } from "./cpuOperators.js";

/** Makes a zeroed grid of `cells` cells (ordinary memory, or shared memory for a worker pool). */
export type GridAllocator = (cells: number) => Int32Array;

const ownGrid: GridAllocator = (cells) => new Int32Array(cells);

/** The CPU kernels over one state. */
export class CpuBatchRunner {
    private _state: ErosionStateData;
    // The droplet scratch is made on first use: a bake's coordinator, which only keeps the state
    // and maps while tile jobs and river windows do the work, never makes it (28 bytes a vertex).
    private _deltaGrid: Int32Array | null = null;
    private _foldScratch: FoldScratch | null = null;
    private _flux: Int32Array = new Int32Array(0);
    private _river: { scratch: RiverScratch; work: RiverBandWork } | null = null;
    private _maps: ErosionMaps;
    private _waterVisits: Int32Array | null = null;
    /** What an operator's row runs over (`CPU_OPERATORS`): getters, so each reads the scratch and maps in force, made on first use. */
    private readonly _context: CpuOperatorContext = (() => {
        // A getter's `this` is the context: the runner's private fields are read through `runner`.
        const runner = this;
        return {
            get state() {
                return runner._state;
            },
            get maps() {
                return runner._maps;
            },
            get delta() {
                return runner._delta;
            },
            get fold() {
                return runner._fold;
            },
            get waterBatch() {
                return runner._waterBatch;
            },
            riverGrids: () => runner._riverGrids(),
            flux: (slots: number) => {
                if (runner._flux.length < slots) runner._flux = new Int32Array(slots);
                return runner._flux;
            },
        };
    })();

    /**
     * @param state the state to run on (owned from now on, not copied)
     * @param _allocate where the grids a worker pool shares are made (the maps and the river's
     *   scratch): shared memory from the start, so the pool never copies them over (a large bake's
     *   memory)
     */
    constructor(
        state: ErosionStateData,
        private readonly _allocate: GridAllocator = ownGrid
    ) {
        this._state = state;
        this._maps = this._newMaps();
    }

    private get _cells(): number {
        return this._state.width * this._state.depth;
    }

    /** The droplet batch's delta (a river batch's too). */
    private get _delta(): Int32Array {
        return (this._deltaGrid ??= this._allocate(this._cells));
    }

    private get _fold(): FoldScratch {
        return (this._foldScratch ??= new FoldScratch(this._cells, this._allocate));
    }

    /** The droplet batch's visits (the water map's). */
    private get _waterBatch(): Int32Array {
        return (this._waterVisits ??= new Int32Array(this._cells));
    }

    private _newMaps(): ErosionMaps {
        if (this._allocate === ownGrid) return createMaps(this._state.width * this._state.depth);
        const map = () => {
            const grid = this._allocate(this._state.width * this._state.depth);
            return new Uint32Array(grid.buffer, grid.byteOffset, grid.length);
        };
        return { water: map(), wear: map(), deposition: map() };
    }

    /** The erosion maps accumulated since construction or `resetMaps()` (live). */
    public get maps(): ErosionMaps {
        return this._maps;
    }

    /** Starts the maps again from zero. */
    public resetMaps(): void {
        this._maps = this._newMaps();
    }

    /** Makes `maps` the maps (not copied: the worker pool's shared grids). */
    public adoptMaps(maps: ErosionMaps): void {
        this._maps = maps;
    }

    /** The river batch's scratch, made the first time it is asked for. */
    public riverScratch(): RiverScratch {
        return this._riverGrids().scratch;
    }

    /** The river batch's band work (its donors and fill-level step), made the first time it is asked for. */
    public riverWork(): RiverBandWork {
        return this._riverGrids().work;
    }

    private _riverGrids(): { scratch: RiverScratch; work: RiverBandWork } {
        // The river batch borrows the droplet fold's grids it can (the delta, the two routing
        // grids, the fill-level step): all zero, or mere scratch, between batches. That saves 20
        // bytes a vertex (a fifth of the backend's memory on a large bake).
        const cells = this._state.width * this._state.depth;
        this._river ??= {
            scratch: {
                riverSlots: this._allocate(cells),
                areaNext: this._allocate(cells),
                eroded: this._allocate(cells),
                riverDelta: this._delta,
                routed: this._fold.routed,
                routedNext: this._fold.routedNext,
            },
            work: new RiverBandWork(this._fold.levelsNext, this._fold.levels),
        };
        return this._river;
    }

    /** The river batch's scratch if a river batch has run, else null. */
    public get existingRiverScratch(): RiverScratch | null {
        return this._river?.scratch ?? null;
    }

    /** Replaces the maps with copies of `maps`. */
    public replaceMaps(maps: ErosionMaps): void {
        this._maps = { water: maps.water.slice(), wear: maps.wear.slice(), deposition: maps.deposition.slice() };
    }

    /** The live state. */
    public get state(): ErosionStateData {
        return this._state;
    }

    /** Runs one batch's kernels, then a tileable terrain's seam. Does not move the state's position (the schedule's job). */
    public run(planned: PlannedBatch): void {
        this.runKernels(planned);
        if (planned.params.seam !== 0) {
            tileSeam(planned.params, this._state.heights, this._state.drainageArea, this._state.counters, this._state.materials?.soil ?? null);
        }
    }

    /**
     * Runs pieces `from .. to - 1` of `planned` (a river batch's phases, `pieceCount`), and the seam
     * with the last: any cut gives `run`'s integers.
     */
    public runPieces(planned: PlannedBatch, from: number, to: number): void {
        const { params, masks } = planned;
        const state = this._state;
        state.masks = masks;
        if (params.materials !== 0) prepareMaterials(state, planned);
        const { scratch, work } = this._riverGrids();
        runRiverBatch(params, planned.riverSteps, state, masks, scratch, work, this._maps, from, to);
        if (to === pieceCount(planned) && params.seam !== 0) {
            tileSeam(params, state.heights, state.drainageArea, state.counters, state.materials?.soil ?? null);
        }
    }

    /** Runs one batch's kernels without the seam (the worker pool makes the seam once per class, as the GPU does). */
    public runKernels(planned: PlannedBatch): void {
        const { params, masks } = planned;
        const state = this._state;
        // The masks in force travel with the state (fingerprint, snapshots).
        state.masks = masks;
        const materials = params.materials !== 0 ? prepareMaterials(state, planned) : null;
        CPU_OPERATORS[planned.operator].run(this._context, planned, materials);
    }

    /** Replaces the state with a copy of `state` (same grid size). */
    public replaceState(state: ErosionStateData): void {
        if (state.width !== this._state.width || state.depth !== this._state.depth) {
            throw new RangeError(`The state is ${state.width} x ${state.depth} but the simulation is ${this._state.width} x ${this._state.depth}.`);
        }
        if (state.counters.length !== COUNTER_COUNT) {
            throw new RangeError(`The state has ${state.counters.length} counters, expected ${COUNTER_COUNT}.`);
        }
        // Into the grids it has, not new ones: the worker pool shares them, and sharing fresh grids
        // again (new SharedArrayBuffers, sent to every helper) took some 12 ms at 513². So the rest
        // of the state is cloned without its grids (cloning them too made four or more grid copies
        // only to drop them).
        const intoOwnWater = state.water != null && this._state.water != null;
        const copy = cloneState({ ...state, ...emptyStateGrids(), water: intoOwnWater ? null : state.water });
        for (const name of STATE_GRIDS) {
            this._state[name].set(state[name]);
            copy[name] = this._state[name];
        }
        if (intoOwnWater) {
            const water = { ...this._state.water! };
            for (const name of WATER_GRIDS) water[name].set(state.water![name]);
            // A view grid a state made by hand lacks: still water until its first depth pass.
            for (const name of WATER_VIEW_GRIDS) water[name].set(state.water![name] ?? new Int32Array(water[name].length));
            copy.water = water;
        }
        if (state.materials && this._state.materials) {
            const materials = { ...this._state.materials };
            for (const name of MATERIAL_GRIDS) materials[name].set(state.materials[name]);
            copy.materials = materials;
        }
        this._state = copy;
        this._deltaGrid?.fill(0);
    }
}

/** How many pieces `planned` runs in on the CPU (`CpuBatchRunner.runPieces`): a river batch's phases; 1 for any other. */
export function pieceCount(planned: PlannedBatch): number {
    return CPU_OPERATORS[planned.operator].pieces(planned);
}

/** The state's grids, empty: what `replaceState` clones the rest of a state with. */
function emptyStateGrids(): Pick<ErosionStateData, StateGridName> {
    return { heights: new Int32Array(0), suspended: new Int32Array(0), drainageArea: new Int32Array(0), fillLevels: new Int32Array(0) };
}
