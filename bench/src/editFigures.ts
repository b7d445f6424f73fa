/**
 * The cost of a ground edit (`edit-crater`, `edit-canal`, `edit-flatten`, ms an edit): the edit's
 * batch as both backends run it, its integers applied over its rectangle and the fill levels'
 * steps over its extent (up to 256), from the bench terrain every run. On the CPU through
 * `CpuBatchRunner.run` (what the CPU backend's worker does between two batches); on WebGPU through
 * `GpuErosionSimulation.runBatches` (the amounts written under the rectangle, one `ground_edit`
 * dispatch, then the level steps), submit to `onSubmittedWorkDone`. What a frame that applies an
 * edit costs beyond the frame without it is this figure (the edit is a batch of its own in it).
 */
import { CpuBatchRunner, createInitialState, ErosionSchedule, GpuErosionSimulation, shapeGroundEdit, type PlannedBatch, type WebGpuComputeDevice } from "../../plugin/advanced.js";
import { resolveOptions, type GroundEditRequest } from "../../plugin/index.js";
import { repeat, summarize, type BenchRecord, type RunCounts } from "./records.js";
import { benchHeights } from "./workloads.js";

const UNIT = 65536;

/** The edits measured, in cells of a `size` field: a blast, a canal across it, a foundation. */
function editCases(size: number): { kernel: string; request: GroundEditRequest; points: { x: number; y: number }[]; radius: number; what: string }[] {
    const middle = size / 2;
    return [
        { kernel: "edit-crater", request: { kind: "crater", depth: 4 * UNIT, rim: true }, points: [{ x: middle, y: middle }], radius: 8, what: "a crater 8 cells wide, 4 cells deep, its rim to 1.6 radii" },
        { kernel: "edit-canal", request: { kind: "dig", depth: 2 * UNIT }, points: [{ x: middle - 64, y: middle }, { x: middle + 64, y: middle + 16 }], radius: 2, what: "a canal 129 cells long, 4 cells wide, 2 cells deep (along a path)" },
        { kernel: "edit-flatten", request: { kind: "flatten", target: 40 * UNIT, edge: 0.3 }, points: [{ x: middle, y: middle }], radius: 16, what: "flatten over a disc 16 cells wide, soft edge 0.3" },
    ];
}

/** Each case's edit batch, planned on a schedule at the start of a run. */
function editBatches(size: number): { kernel: string; planned: PlannedBatch; what: string }[] {
    return editCases(size).map(({ kernel, request, points, radius, what }) => {
        const schedule = new ErosionSchedule({ width: size, depth: size }, resolveOptions({}));
        schedule.stampEdit(shapeGroundEdit(request, points, radius, size, size));
        return { kernel, planned: schedule.planNext()!, what };
    });
}

/** The CPU figures at `size`. */
export async function runCpuEditFigures(size: number, counts: RunCounts): Promise<BenchRecord[]> {
    const start = createInitialState(size, size, benchHeights(size));
    const records: BenchRecord[] = [];
    for (const { kernel, planned, what } of editBatches(size)) {
        const runner = new CpuBatchRunner(createInitialState(size, size, start.heights));
        const values = await repeat(counts, () => {
            runner.state.heights.set(start.heights);
            runner.state.fillLevels.set(start.fillLevels);
            const started = performance.now();
            runner.run(planned);
            return performance.now() - started;
        });
        const detail = `${what}: the edit's batch as CpuBatchRunner runs it (applyGroundEdit, then ${planned.params.maxSteps} fill-level steps over its extent), from the bench terrain every run`;
        records.push({ backend: "cpu", kernel, size, brushRadius: null, threads: 1, unit: "ms", ...summarize(values), runs: counts.runs, detail });
    }
    return records;
}

/** The WebGPU figures at `size` on `compute` (whose `GPUDevice` is `device`). */
export async function runGpuEditFigures(compute: WebGpuComputeDevice, device: GPUDevice, size: number, options: { backend: string; counts: RunCounts }): Promise<BenchRecord[]> {
    const simulation = await GpuErosionSimulation.create(compute, size, size, 64);
    const start = createInitialState(size, size, benchHeights(size));
    const records: BenchRecord[] = [];
    try {
        for (const { kernel, planned, what } of editBatches(size)) {
            const values = await repeat(options.counts, async () => {
                simulation.upload(start);
                simulation.submit();
                await device.queue.onSubmittedWorkDone();
                const started = performance.now();
                simulation.runBatches([planned]);
                simulation.submit();
                await device.queue.onSubmittedWorkDone();
                return performance.now() - started;
            });
            const detail = `${what}: the edit's batch as GpuErosionSimulation records it (its amounts written under the rectangle, ground_edit, ${planned.params.maxSteps} fill_levels + copy_levels steps over its extent), recording and writes included, submit to onSubmittedWorkDone`;
            records.push({ backend: options.backend, kernel, size, brushRadius: null, threads: null, unit: "ms", ...summarize(values), runs: options.counts.runs, detail });
        }
    } finally {
        simulation.dispose();
    }
    return records;
}
