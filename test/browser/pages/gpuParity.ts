/**
 * Test page: runs erosion batches through the plugin's Babylon ComputeShader wrappers on a real
 * WebGPUEngine and hands the whole state back to the Node test, which compares it with the CPU
 * reference.
 */
import { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import { resolveOptions, type ErosionOptionsInput, type GridPoint, type GroundEditRequest, type MaskName } from "../../../plugin/index.js";
import { BabylonComputeDevice, createLocalEvent, ErosionSchedule, GpuErosionSimulation, createInitialState, MASK_NAMES, STATE_GRIDS, WATER_CARRIED_GRIDS, shapeGroundEdit, withSourceAdded, type ErosionMasks, type PlannedBatch, type StateGridName, type WaterGridName, type WaterViewGridName } from "../../../plugin/advanced.js";
import { decodeInt32, encodeInt32 } from "../../helpers/base64.js";

/** What the Node side asks for. */
export interface GpuRunRequest {
    width: number;
    depth: number;
    heights: string;
    /** The grid's cell size (the CPU side runs with the same). */
    cellSize: number;
    options: ErosionOptionsInput;
    batches: number;
    masks: Record<MaskName, string | null> | null;
    /** erodeAt events (grid cells) queued after the given batch. */
    events?: { afterBatch: number; x: number; y: number; radius: number; droplets: number }[];
    /** Water sources (grid cells, cubic cells a step) added after the given batch. */
    sources?: { afterBatch: number; x: number; y: number; radius: number; rate: number }[];
    /** Ground edits (grid cells, fixed-point heights) stamped after the given batch. */
    edits?: { afterBatch: number; request: GroundEditRequest; points: GridPoint[]; radius: number }[];
    /** A mask set (Q16 values) or cleared after the given batch (in force from the next cycle boundary). */
    maskChanges?: { afterBatch: number; name: MaskName; values: string | null }[];
    /**
     * How the batches are recorded: one at a time in schedule order ("batch", the default), each
     * class's batches sharing their dispatches ("class"), or each class's batches one at a time in
     * reverse ("reverse"), or with each river and droplet batch in pieces ("pieces": bands of 8 rows, ranges of 64 droplets, three
     * pieces a submission, `runPieces`).
     */
    mode?: "batch" | "class" | "reverse" | "pieces";
}

/** `batches` with each run of consecutive batches of one class reversed. */
function reversedWithinClasses(batches: readonly PlannedBatch[]): PlannedBatch[] {
    const result: PlannedBatch[] = [];
    let start = 0;
    while (start < batches.length) {
        let end = start + 1;
        while (end < batches.length && batches[end].group === batches[start].group && batches[end].cycle === batches[start].cycle) end++;
        result.push(...batches.slice(start, end).reverse());
        start = end;
    }
    return result;
}

/** What the page returns. */
export interface GpuRunResult {
    /** Every grid of the state, base64. */
    grids: Record<StateGridName, string>;
    counters: number[];
    cycle: number;
    batch: number;
    adapter: string;
    maps: { water: string; wear: string; deposition: string };
    /** The water's grids (its state and velocity), base64, or null while water has not run. */
    water: Record<WaterGridName | WaterViewGridName, string> | null;
    /** The materials' grids, base64, or null while they have not run. */
    materials: { soil: string; hardness: string } | null;
    /** The region checksums' lanes (regions of 8 vertices), computed by the kernels, base64. */
    checksums: string;
}

let enginePromise: Promise<WebGPUEngine> | null = null;

function engine(): Promise<WebGPUEngine> {
    enginePromise ??= (async () => {
        const canvas = document.createElement("canvas");
        canvas.width = 64;
        canvas.height = 64;
        document.body.appendChild(canvas);
        const created = new WebGPUEngine(canvas, { antialias: false });
        await created.initAsync();
        return created;
    })();
    return enginePromise;
}

async function runGpuBatches(request: GpuRunRequest): Promise<GpuRunResult> {
    const webgpu = await engine();
    const device = new BabylonComputeDevice(webgpu);
    const options = resolveOptions(request.options);
    const schedule = new ErosionSchedule({ width: request.width, depth: request.depth, cellSize: request.cellSize }, options);
    if (request.masks) {
        const decode = (mask: string | null) => (mask ? decodeInt32(mask) : null);
        schedule.setMasks(Object.fromEntries(MASK_NAMES.map((name) => [name, decode(request.masks![name])])) as ErosionMasks);
    }
    const simulation = await GpuErosionSimulation.create(device, request.width, request.depth, options.patchSize);
    try {
        simulation.upload(createInitialState(request.width, request.depth, decodeInt32(request.heights)));
        const planned: PlannedBatch[] = [];
        for (let i = 0; i < request.batches; i++) {
            for (const event of request.events ?? []) {
                if (event.afterBatch === i) schedule.queueEvent(createLocalEvent(schedule.latestOptions, request.width, request.depth, event.x, event.y, event.radius, { droplets: event.droplets }));
            }
            for (const edit of request.edits ?? []) {
                if (edit.afterBatch === i) schedule.stampEdit(shapeGroundEdit(edit.request, edit.points, edit.radius, request.width, request.depth, schedule.options.tileable));
            }
            for (const change of request.maskChanges ?? []) {
                if (change.afterBatch === i) schedule.setMasks({ ...schedule.latestMasks, [change.name]: change.values ? decodeInt32(change.values) : null });
            }
            for (const source of request.sources ?? []) {
                if (source.afterBatch === i) schedule.setSources(withSourceAdded(schedule.latestSources, source.x, source.y, source.radius, source.rate, request.width, request.depth).sources);
            }
            const next = schedule.planNext();
            if (next) {
                planned.push(next);
            }
            schedule.advance();
        }
        const mode = request.mode ?? "batch";
        if (mode === "class") {
            simulation.runBatches(planned);
        } else if (mode === "pieces") {
            simulation.pieces.pieceWork = 8 * request.width; // bands of a workgroup's rows, several passes a piece elsewhere
            for (const batch of planned) {
                const total = simulation.pieceCount(batch);
                if (total === 1) simulation.runBatch(batch);
                for (let from = 0; total > 1 && from < total; from += 3) {
                    simulation.runPieces(batch, from, Math.min(total, from + 3));
                    simulation.submit();
                }
            }
        } else {
            for (const batch of mode === "reverse" ? reversedWithinClasses(planned) : planned) {
                simulation.runBatch(batch);
            }
        }
        const checksums = encodeInt32(new Int32Array((await simulation.regionChecksums(8)).buffer));
        const state = await simulation.readState(schedule.cycle, schedule.batch);
        const maps = await simulation.readMaps();
        const asInt = (values: Uint32Array) => encodeInt32(new Int32Array(values.buffer));
        const grids = Object.fromEntries(STATE_GRIDS.map((grid) => [grid, encodeInt32(state[grid])])) as Record<StateGridName, string>;
        const water = state.water ? (Object.fromEntries(WATER_CARRIED_GRIDS.map((grid) => [grid, encodeInt32(state.water![grid])])) as Record<WaterGridName | WaterViewGridName, string>) : null;
        const materials = state.materials ? { soil: encodeInt32(state.materials.soil), hardness: encodeInt32(state.materials.hardness) } : null;
        return { grids, counters: Array.from(state.counters), cycle: state.cycle, batch: state.batch, adapter: device.adapterDescription, maps: { water: asInt(maps.water), wear: asInt(maps.wear), deposition: asInt(maps.deposition) }, water, materials, checksums };
    } finally {
        simulation.dispose();
    }
}

Object.assign(window, { runGpuBatches, pageReady: true });
