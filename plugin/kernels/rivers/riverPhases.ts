/**
 * A river batch as a list of phases, each a Jacobi pass that writes only the rows it is given and
 * reads its neighbours' (across the seam of a tileable terrain), so any phase can be split into
 * bands of rows run at once, with a barrier between phases.
 * One thread runs every phase over one band (`runRiverBatch`); the worker pool gives each worker a
 * band of every phase (`plugin/cpu/pool/`). Either way the integers are those of the GPU's
 * dispatch order: river_slots, stepsPerBatch x river_accumulate (ping-pong, copy_area after an odd
 * count), river_erode, river_uplift, river_settle, routeHops x route_sediment, apply_delta,
 * fill_levels, copy_levels.
 */
import { type BatchParams, riverRect } from "../../core/batchParams.js";
import type { ErosionMaps } from "../../core/erosionMaps.js";
import type { ErosionMasks, ErosionStateData } from "../../core/erosionState.js";
import { applyDelta } from "../fold/applyDelta.js";
import { copyLevels, fillLevelStep, type FillLevelScratch } from "../fold/fillLevels.js";
import { copyArea, copyRingAreas, DonorLists, listDonors, riverAreaStep, riverSlotRows } from "./mirror/riverAccumulate.js";
import { riverSlots } from "./mirror/riverSlots.js";
import { riverCut, riverErode, riverSettle, riverUplift } from "./mirror/riverErode.js";
import { ChangedCells, FRONTIER_SHARE } from "./mirror/riverFrontier.js";
import { riverHop } from "./mirror/riverRoute.js";
import { clearRouted } from "../fold/routeSediment.js";
import { byteView, riverDonors, riverRoots, VertexList } from "./fast/riverForest.js";
import { RiverWalkStack, walkRiverBatch, type RiverWalkGrids } from "./fast/riverWalk.js";
import { walkRiverBatchWasm } from "./fast/riverWalkWasm.js";
import { rowBand, type RowRange } from "../rowBands.js";

/** The river batch's grids every band reads across its edges: in shared memory when split over workers. */
export const RIVER_SHARED_GRIDS = ["riverSlots", "areaNext", "eroded", "riverDelta", "routed", "routedNext"] as const;

/** Grids of the state's size a river batch works in, read across bands. */
export type RiverScratch = Record<(typeof RIVER_SHARED_GRIDS)[number], Int32Array>;

/** Fresh river scratch: all zero. */
export function createRiverScratch(cells: number): RiverScratch {
    const scratch = {} as RiverScratch;
    for (const name of RIVER_SHARED_GRIDS) scratch[name] = new Int32Array(cells);
    return scratch;
}

/**
 * What one band's worker keeps between the phases of a batch: its donors, the lists of its sparse
 * steps (`riverFrontier.ts`: the changed vertices of the last three area steps or hops, in turn),
 * and the fill levels' step (grids of the state's size).
 */
export class RiverBandWork {
    public readonly donors = new DonorLists();
    private readonly _changed = [new ChangedCells(), new ChangedCells(), new ChangedCells()] as const;
    private _marks = new Uint8Array(0);
    /** The vertices a sparse step visits (`frontierCells`). */
    public readonly visits = new ChangedCells();
    /** The stack of the walk down the slot forest (`riverWalk.ts`). */
    public readonly walk = new RiverWalkStack();
    /** The roots of the slot forest, when the walk lists them itself. */
    public readonly roots = new VertexList();
    /** The roots the donors listed (one band over every row), for the walk that follows; null once walked. */
    public listedRoots: Int32Array | null = null;
    /** A sparse step's lists hold at most 1/frontierShare of the band's vertices; 0 makes every step dense (the tests compare the two). */
    public frontierShare = FRONTIER_SHARE;

    constructor(
        public readonly levelsNext: Int32Array,
        public readonly levels: FillLevelScratch
    ) {}

    /** The list of step (or hop) `step`'s changed vertices: three kept in turn. */
    public changed(step: number): ChangedCells {
        return this._changed[step % 3];
    }

    /** One byte a vertex of a `cells`-vertex grid, all zero between steps (made on first use). */
    public marks(cells: number): Uint8Array {
        if (this._marks.length !== cells) this._marks = new Uint8Array(cells);
        return this._marks;
    }

    /** Band work with grids of its own. */
    public static create(cells: number): RiverBandWork {
        return new RiverBandWork(new Int32Array(cells), { level: new Int32Array(cells) });
    }
}

/** One phase of a river batch. `listDonors`: the band's donors are listed first (the first phase after the slots). */
export type RiverPhase =
    | { readonly kind: "slots" }
    | { readonly kind: "area"; readonly step: number; readonly listDonors: boolean }
    | { readonly kind: "copyArea" }
    | { readonly kind: "cut"; readonly listDonors: boolean }
    | { readonly kind: "erode" }
    | { readonly kind: "hop"; readonly hop: number }
    | { readonly kind: "donors" }
    /** `roots`: the trees to walk (a worker's share, `splitRoots`), or null for all of them. */
    | { readonly kind: "walk"; readonly steps: number; readonly roots: Int32Array | null }
    | { readonly kind: "apply" }
    | { readonly kind: "levels" }
    /** `clearRouting`: the stepped hops' grids to clear (a walk never writes them). */
    | { readonly kind: "copyLevels"; readonly clearRouting: boolean };

/**
 * The phases of a river batch of `steps` drainage-area steps, in order. With `walk` (one thread
 * over all the rows, not on a tileable terrain: `canWalk`), everything from the drainage-area
 * steps to the last sediment hop is one walk down the slot forest (`riverWalk.ts`), with the same
 * integers.
 */
export function riverPhases(params: BatchParams, steps: number, walk = false): RiverPhase[] {
    const phases: RiverPhase[] = [{ kind: "slots" }];
    if (walk && canWalk(params)) {
        phases.push({ kind: "donors" }, { kind: "walk", steps, roots: null });
    } else {
        for (let step = 0; step < steps; step++) phases.push({ kind: "area", step, listDonors: step === 0 });
        if (steps % 2 === 1) phases.push({ kind: "copyArea" });
        phases.push({ kind: "cut", listDonors: steps === 0 }, { kind: "erode" });
        for (let hop = 1; hop <= params.routeHops; hop++) phases.push({ kind: "hop", hop });
    }
    phases.push({ kind: "apply" }, { kind: "levels" }, { kind: "copyLevels", clearRouting: !phases.some((phase) => phase.kind === "walk") });
    return phases;
}

/** Whether a river batch can be walked down its slot forest: not across a tileable terrain's seam. */
export function canWalk(params: BatchParams): boolean {
    return params.wrap === 0;
}

/** The rows a phase covers, before it is split into bands. */
export function riverPhaseRows(params: BatchParams, phase: RiverPhase): RowRange {
    switch (phase.kind) {
        case "slots":
            return riverSlotRows(params);
        case "apply":
        case "levels":
        case "copyLevels":
            return { y0: params.extentY0, y1: params.extentY1 };
        default: {
            const rect = riverRect(params);
            return { y0: rect.y0, y1: rect.y1 };
        }
    }
}

/** Band `band` of `bands` of a phase's rows. */
export function riverPhaseBand(params: BatchParams, phase: RiverPhase, band: number, bands: number): RowRange {
    const rows = riverPhaseRows(params, phase);
    return rowBand(rows.y0, rows.y1, band, bands);
}

/** Everything a river phase works on. */
export interface RiverPhaseContext {
    readonly params: BatchParams;
    readonly state: ErosionStateData;
    readonly masks: ErosionMasks;
    readonly scratch: RiverScratch;
    readonly work: RiverBandWork;
    /** Where the phase's counters go (the state's, or a worker's own to be summed). */
    readonly counters: Float64Array;
    readonly maps: ErosionMaps | null;
    /** A walk's vertices outside these rows count into `elsewhere`, not `counters` (`RiverWalkGrids.countedRows`). */
    readonly countedRows?: RiverWalkGrids["countedRows"];
}

/** The batch's parameters with its extent cut to `rows` (the passes that work over the extent). */
function extentRows(params: BatchParams, rows: RowRange): BatchParams {
    return {
        ...params,
        extentY0: Math.max(params.extentY0, rows.y0),
        extentY1: Math.max(Math.max(params.extentY0, rows.y0), Math.min(params.extentY1, rows.y1)),
    };
}

/** Runs `phase` over `rows` (a band of `riverPhaseRows`). */
export function runRiverPhase(phase: RiverPhase, rows: RowRange, context: RiverPhaseContext): void {
    const { params, state, masks, scratch, work, counters } = context;
    const { heights, fillLevels: levels, drainageArea: area, suspended } = state;
    const inputs = {
        heights,
        levels,
        area,
        slots: scratch.riverSlots,
        mask: masks.rivers,
        materials: params.materials !== 0 ? (state.materials ?? null) : null,
    };
    if ((phase.kind === "area" || phase.kind === "cut") && phase.listDonors) listDonors(params, scratch.riverSlots, work.donors, rows);
    const scope = { params, slots: scratch.riverSlots, marks: work.marks(heights.length), visits: work.visits, share: work.frontierShare };
    switch (phase.kind) {
        case "slots":
            riverSlots(params, heights, levels, scratch.riverSlots, rows);
            copyRingAreas(params, area, scratch.areaNext, rows);
            return;
        case "area": {
            // Even steps read the areas into the scratch, odd steps back.
            const frontier = { previous: phase.step === 0 ? null : work.changed(phase.step - 1), changed: work.changed(phase.step), scope };
            if (phase.step % 2 === 0) riverAreaStep(params, work.donors, area, scratch.areaNext, frontier);
            else riverAreaStep(params, work.donors, scratch.areaNext, area, frontier);
            return;
        }
        case "copyArea":
            copyArea(params, scratch.areaNext, area, rows);
            return;
        case "donors": {
            // The erosion grid, free until a stepped batch's cut, holds the walk's donors (one byte a
            // vertex). A band over every row lists the roots as it goes.
            const rect = riverRect(params);
            const everyRow = rows.y0 <= rect.y0 && rows.y1 >= rect.y1;
            riverDonors(params, scratch.riverSlots, byteView(scratch.eroded, heights.length), rows, everyRow ? work.roots : null);
            work.listedRoots = everyRow ? work.roots.list : null;
            return;
        }
        case "walk": {
            // The drainage-area scratch is free in a walk: it keeps each tree's size at its root, to split the next batch's walk by.
            const roots = phase.roots ?? work.listedRoots ?? riverRoots(params, scratch.riverSlots, work.roots);
            work.listedRoots = null;
            const grids = {
                ...inputs,
                suspended,
                delta: scratch.riverDelta,
                uplift: masks.uplift,
                counters,
                donors: byteView(scratch.eroded, heights.length),
                countedRows: context.countedRows,
            };
            // The same integers either way: TypeScript where this thread cannot run WebAssembly.
            if (!walkRiverBatchWasm(params, phase.steps, grids, work.walk, roots, scratch.areaNext))
                walkRiverBatch(params, phase.steps, grids, work.walk, roots, scratch.areaNext);
            return;
        }
        case "cut":
            riverCut(params, inputs, scratch.eroded, rows);
            return;
        case "erode":
            riverErode(params, inputs, work.donors, scratch.riverDelta, suspended, scratch.routed, scratch.eroded, rows);
            riverUplift(params, heights, scratch.riverDelta, masks.uplift, counters, rows);
            riverSettle(params, scratch.riverSlots, suspended, scratch.routed, counters, rows);
            return;
        case "hop": {
            const [from, to] = phase.hop % 2 === 1 ? [scratch.routed, scratch.routedNext] : [scratch.routedNext, scratch.routed];
            // The erosion's sends (hop 0's) are not listed: the first hop visits every vertex.
            if (phase.hop === 1) work.changed(0).forget();
            const frontier = { previous: work.changed(phase.hop - 1), older: work.changed(phase.hop + 1), senders: work.changed(phase.hop), scope };
            // The erosion grid is free once the erode phase is done: the hops keep each basin vertex's room there.
            riverHop(
                params, phase.hop, { heights, levels, slots: scratch.riverSlots, delta: scratch.riverDelta, suspended, room: scratch.eroded }, work.donors,
                from, to, masks.rivers, counters, frontier
            );
            return;
        }
        case "apply":
            applyDelta(extentRows(params, rows), heights, scratch.riverDelta, context.maps, null, state.materials ?? null, masks.uplift);
            return;
        case "levels":
            fillLevelStep(extentRows(params, rows), heights, levels, work.levelsNext, work.levels);
            return;
        case "copyLevels": {
            const band = extentRows(params, rows);
            copyLevels(band, work.levelsNext, levels);
            if (phase.clearRouting) clearRouted(band, scratch.routed, scratch.routedNext);
            return;
        }
    }
}
