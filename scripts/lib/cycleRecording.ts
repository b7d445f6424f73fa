/**
 * One whole cycle of the schedule, planned and recorded as the GPU backend's `runCycles` records
 * it (consecutive batches of one class share their dispatches): shared by the dispatch-count test
 * and the benchmark's cycle figures.
 */
import { resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { CountingComputeDevice, ErosionSchedule, GpuErosionSimulation, type ComputeDevice, type PlannedBatch } from "../../plugin/advanced.js";
import { nullComputeDevice } from "./nullComputeDevice.js";

/** The batches of the schedule's current cycle, in order (the schedule ends at the next cycle). */
export function planCycle(schedule: ErosionSchedule): PlannedBatch[] {
    const planned: PlannedBatch[] = [];
    do {
        const next = schedule.planNext();
        if (next) planned.push(next);
    } while (!schedule.advance());
    return planned;
}

/** What recording one cycle took. */
export interface CycleRecording {
    dispatches: number;
    /** Workgroups those dispatches launch (x * y * z summed). */
    workgroups: number;
    batches: number;
}

/**
 * Records one cycle of `options` on a `size x size` field and counts its dispatches, on `device`
 * (default: a device with WebGPU's default limits that runs nothing, so any size records in a second).
 */
export async function recordCycle(size: number, options: ErosionOptionsInput, device: ComputeDevice = nullComputeDevice()): Promise<CycleRecording> {
    const counting = new CountingComputeDevice(device);
    const resolved = resolveOptions(options);
    const planned = planCycle(new ErosionSchedule({ width: size, depth: size }, resolved));
    const simulation = await GpuErosionSimulation.create(counting, size, size, resolved.patchSize);
    try {
        counting.resetCounts();
        simulation.runBatches(planned);
        simulation.submit();
        return { dispatches: counting.dispatches, workgroups: counting.workgroups, batches: planned.length };
    } finally {
        simulation.dispose();
    }
}
