/**
 * How a batch the frame budget cannot hold (a river batch over the whole field, or a droplet batch
 * on a slow adapter) is cut into pieces the frame loop runs over several frames on the GPU: its
 * steps in order, cheap ones run together and costly ones cut into bands of rows or ranges of
 * droplets, each piece about the same work. A grid pass's invocations read nothing another writes
 * (`GridPass`), and droplets only add into the accumulator with integer atomics, which commute, so
 * any cut gives the whole batch's integers; how it is cut only decides how even the frames are.
 */
import { planDropletDispatch, record, recordGridPass, recordTileSeam, routeAndFoldPasses, gridGroups, type GridPass } from "./batchDispatch.js";
import type { PlannedBatch } from "../core/schedule.js";
import type { GpuRecorder } from "./gpuRecorder.js";
import { GPU_OPERATORS } from "./gpuOperators.js";
import { dropletKernel } from "./operators/droplets.js";
import type { GpuCut } from "./operators/operatorContext.js";
import { riverPasses } from "./operators/rivers.js";
import { DROPLET_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE, type KernelName } from "./kernelTable.js";

/** One step of a piece: a band of rows of a grid pass, a range of a droplet batch's droplets, its clip_delta, or a tileable terrain's seam. */
export type PieceStep =
    | { readonly kind: "pass"; readonly pass: GridPass; readonly rowOffset: number; readonly rowCount: number }
    | { readonly kind: "droplets"; readonly first: number; readonly count: number }
    | { readonly kind: "clip" }
    | { readonly kind: "seam" };

/**
 * What a vertex of each pass costs, relative to a drainage-area step's (1 where not listed).
 * Measured on SwiftShader at 513² (test/soak/smoothFrames.test.ts dumps each piece's time; a
 * drainage-area step about 0.85 µs a vertex there): river_erode about 22 times a step (it walks
 * each vertex's neighbours' loads and the stream power; weighted 11, its six bands took 143-316 ms
 * where the pieces around them took 110-125, the bands over the big channels the most: 2026-12-03,
 * with the shallow water on), clip_delta about 3 times, the fold's
 * apply_delta, fill_levels and copy_levels about a quarter; the routing hops `routeHopWeight`.
 */
const PASS_WEIGHTS: Partial<Record<KernelName, number>> = {
    river_erode: 32,
    clip_delta: 3,
    apply_delta: 0.25,
    fill_levels: 0.25,
    copy_levels: 0.25,
};

/** What one step of a droplet's walk costs in the same units (about 2 µs on SwiftShader). */
const DROPLET_STEP_WEIGHT = 2.5;

/**
 * The least work of a piece, in weighted vertex visits: about a default droplet batch's (1,024
 * droplets of 64 steps and its fold, some 450,000), which SwiftShader runs in 100-200 ms at 513²
 * and a discrete GPU in well under a millisecond (where budget-sized pieces are far larger). Finer
 * pieces on a software adapter paid each frame's fixed costs (a submission and its wait, tens of
 * ms with the rendering) so often that a cycle took twice the frames and wall time, and made the
 * longest frame no shorter next to the median (measured: 4.1x the median at a 4 ms budget with
 * pieces of 60,000, 2.3x with these).
 */
export const MIN_PIECE_WORK = 500_000;

/** Something a batch does that a cut may split: `total` rows or droplets, in whole `quantum`s. */
interface Cuttable {
    readonly total: number;
    /** The work of one row or droplet. */
    readonly unitWork: number;
    /** What a cut may split it into: whole workgroups' rows or droplets (`total`: never split). */
    readonly quantum: number;
    step(offset: number, count: number): PieceStep;
}

const ROUTE_KERNELS: ReadonlySet<KernelName> = new Set(["route_sediment", "route_sediment_odd", "route_sediment_last", "route_sediment_last_odd"]);

/**
 * What a vertex of the river batch's routing hop `hop` (from 1) costs: about 4.5 drainage-area
 * steps, and up to twice that for the first hops, which move the sediment that every eroding
 * vertex holds (each an atomic add), where later hops move only what is still in transit
 * (measured at 513² on SwiftShader: the first two hops about 620 ms a half-field band, the next
 * four about 400, the rest about 300, where a drainage-area piece of the same weight took 200).
 */
function riverHopWeight(hop: number): number {
    return 4.5 * (1 + 1 / Math.ceil(hop / 2));
}

/** What a vertex of a droplet batch's routing hop costs: about 3 drainage-area steps (only the vertices the droplets eroded or fed hold sediment). */
const DROPLET_HOP_WEIGHT = 3;

/** Grid passes as cuttable steps, each weighted by its kernel (`PASS_WEIGHTS`) and a routing hop by its place (`hopWeight`). */
function gridPasses(passes: readonly GridPass[], hopWeight: (hop: number) => number): Cuttable[] {
    let hop = 0;
    return passes.map((pass) => {
        const weight = ROUTE_KERNELS.has(pass.kernel) ? hopWeight(++hop) : (PASS_WEIGHTS[pass.kernel] ?? 1);
        return {
            total: pass.rows,
            unitWork: weight * pass.columns,
            quantum: GRID_WORKGROUP_SIZE,
            step: (rowOffset, rowCount) => ({ kind: "pass", pass, rowOffset, rowCount }),
        };
    });
}

/**
 * Cuts `steps` into pieces of about `pieceWork`: consecutive steps whose work together fits run as
 * one piece; a step that does not fit alone runs in even parts of whole quanta (the last part not
 * a sliver). A dispatch covers whole workgroups and the kernels idle only past a step's end, so a
 * part that ended inside a workgroup would run the first rows or droplets of the next part too.
 */
function cut(steps: readonly Cuttable[], pieceWork: number): PieceStep[][] {
    const pieces: PieceStep[][] = [];
    let open: PieceStep[] = [];
    let openWork = 0;
    const close = () => {
        if (open.length > 0) pieces.push(open);
        open = [];
        openWork = 0;
    };
    for (const step of steps) {
        const whole = step.unitWork * step.total;
        if (whole > pieceWork && step.quantum < step.total) {
            close();
            const parts = Math.ceil(whole / pieceWork);
            const perPart = Math.ceil(Math.ceil(step.total / parts) / step.quantum) * step.quantum;
            for (let offset = 0; offset < step.total; offset += perPart) {
                pieces.push([step.step(offset, Math.min(perPart, step.total - offset))]);
            }
            continue;
        }
        if (openWork + whole > pieceWork) close();
        open.push(step.step(0, step.total));
        openWork += whole;
    }
    close();
    return pieces;
}

/** Each way of cutting a batch (`GPU_OPERATORS[operator].cut`): what the batch does, as cuttable steps. */
const CUTS: Record<Exclude<GpuCut, null>, (planned: PlannedBatch) => Cuttable[]> = {
    rivers: (planned) => gridPasses(riverPasses([planned.params], planned.riverSteps), riverHopWeight),
    droplets: (planned) => {
        const p = planned.params;
        const region = (p.regionX1 - p.regionX0) * (p.regionY1 - p.regionY0);
        return [
            {
                total: p.dropletCount,
                unitWork: DROPLET_STEP_WEIGHT * p.maxSteps,
                quantum: DROPLET_WORKGROUP_SIZE,
                step: (first, count) => ({ kind: "droplets", first, count }),
            },
            { total: 1, unitWork: (PASS_WEIGHTS.clip_delta ?? 1) * region, quantum: 1, step: () => ({ kind: "clip" }) },
            ...gridPasses(routeAndFoldPasses([p], "hydraulic"), () => DROPLET_HOP_WEIGHT),
        ];
    },
};

/** What `planned` does, as cuttable steps (null: a batch that is not cut: thermal, water, an edit). */
function stepsOf(planned: PlannedBatch): Cuttable[] | null {
    const cut = GPU_OPERATORS[planned.operator].cut;
    return cut === null ? null : CUTS[cut](planned);
}

/**
 * `planned` cut into about `wanted` pieces of even work, none less than `MIN_PIECE_WORK` (or of
 * `pieceWork` each when given); a tileable terrain's seam ends the last. One piece for a batch that is not cut (thermal, water, an edit).
 */
export function cutBatch(planned: PlannedBatch, wanted: number, pieceWork: number | null = null): PieceStep[][] {
    const steps = stepsOf(planned);
    if (steps === null) return [[]];
    const total = steps.reduce((sum, step) => sum + step.unitWork * step.total, 0);
    const pieces = cut(steps, pieceWork ?? Math.max(MIN_PIECE_WORK, Math.ceil(total / Math.max(1, wanted))));
    if (planned.params.seam !== 0) pieces[pieces.length - 1].push({ kind: "seam" });
    return pieces;
}

/** The batches in pieces on the GPU, cut once for the batch running in pieces. */
export class GpuBatchPieces {
    /** Work of a piece when set (tests cut small fields into bands with it); null: the count the runner asks for. */
    public pieceWork: number | null = null;
    private _cut: { planned: PlannedBatch; pieces: PieceStep[][] } | null = null;

    /**
     * How many pieces `planned` runs in, cut into about `wanted` pieces of even work (or of
     * `pieceWork`): a river or droplet batch's; 1 for any other batch. The cut is kept until its
     * last piece is recorded, so asking again for the same batch gives the same count.
     */
    public count(planned: PlannedBatch, wanted = 1): number {
        if (this._cut?.planned === planned) return this._cut.pieces.length;
        const pieces = cutBatch(planned, wanted, this.pieceWork);
        if (pieces.length > 1) this._cut = { planned, pieces };
        return pieces.length;
    }

    /**
     * Records pieces `from .. to - 1` of `planned` (`count` cut it): each step writes the batch's
     * params, with its first row or droplet as `dispatchOffset`, into a slot of its own.
     */
    public record(recorder: GpuRecorder, planned: PlannedBatch, from: number, to: number, maxWorkgroupsPerDimension: number): void {
        if (this._cut?.planned !== planned) throw new Error("Internal error: pieces recorded of a batch that was not cut.");
        const pieces = this._cut.pieces;
        const p = planned.params;
        for (const piece of pieces.slice(from, to)) {
            for (const step of piece) {
                if (step.kind === "pass") {
                    recordGridPass(recorder.target([{ ...p, dispatchOffset: step.rowOffset }]), step.pass, step.rowOffset, step.rowCount);
                } else if (step.kind === "droplets") {
                    const dispatch = planDropletDispatch(step.count, maxWorkgroupsPerDimension);
                    // Invocations past the range run the next range's droplets unless the range ends the batch.
                    if (step.first + step.count < p.dropletCount && dispatch.x * dispatch.y * DROPLET_WORKGROUP_SIZE !== step.count) {
                        throw new Error(`Internal error: droplets ${step.first} + ${step.count} do not fill whole dispatch rows.`);
                    }
                    record(
                        recorder.target([{ ...p, dispatchOffset: step.first, dispatchRowThreads: dispatch.rowThreads }]), dropletKernel(p), dispatch.x,
                        dispatch.y, "hydraulic"
                    );
                } else if (step.kind === "clip") {
                    const [x, y] = gridGroups(p.regionX1 - p.regionX0, p.regionY1 - p.regionY0);
                    record(recorder.target([{ ...p, dispatchOffset: 0 }]), "clip_delta", x, y, "hydraulic");
                } else {
                    recordTileSeam(recorder.target([{ ...p, dispatchOffset: 0 }]));
                }
            }
        }
        recorder.noteRecorded();
        if (to === pieces.length) this._cut = null;
    }
}
