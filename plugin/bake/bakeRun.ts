/**
 * The offline bake: a schedule's batches, one class a frame, through the CPU backend on a worker
 * pool or through the GPU simulation on a Dawn device, from a state (a new one or a checkpoint) to
 * a number of cycles. Either way it is the browser component's terrain to the unit: the same
 * schedule, the same kernels, the same contract.
 */
import type { ErosionMaps } from "../core/erosionMaps.js";
import type { ErosionStateData } from "../core/erosionState.js";
import type { ErosionOptions } from "../core/options.js";
import { sameClass, takeFrame } from "../core/frameLoop.js";
import { ErosionSchedule, type PlannedBatch } from "../core/schedule.js";

/** Where a bake's batches run. */
export interface BakeDevice {
    /** How the report names it ("cpu, 2 workers, shared memory", the GPU adapter). */
    readonly description: string;
    /** Runs batches in order (one class). */
    runFrame(batches: readonly PlannedBatch[]): Promise<void>;
    /**
     * The state at (`cycle`, `batch`) and the erosion maps, handed over without copies where the
     * device can (the CPU's grids); the device runs no more batches after it.
     */
    release(cycle: number, batch: number): Promise<{ state: ErosionStateData; maps: ErosionMaps }>;
    /** Replaces the erosion maps (a resumed bake's, from its checkpoint). */
    writeMaps(maps: ErosionMaps): Promise<void>;
    /** What the device's work cost beyond time (a queued bake: steps, jobs, bytes moved), for the report. */
    figures?(): Record<string, unknown>;
    /** The bake completed (not interrupted): forget what a restart would need (a queue's state). */
    complete?(): Promise<void>;
    dispose(): void;
}

/** A state's position and what the schedule reads of it (not its grids, which the device holds). */
export type BakeStart = Pick<ErosionStateData, "width" | "depth" | "cycle" | "batch" | "masks" | "events" | "sources">;

/** The position of `state`, without holding its grids. */
export function bakeStart(state: ErosionStateData): BakeStart {
    const { width, depth, cycle, batch, masks, events, sources } = state;
    return { width, depth, cycle, batch, masks, events, sources };
}

/** What a bake runs. */
export interface BakeRequest {
    /** Where the state it starts from (a new state, or a checkpoint's, already on the device) stands: its grids are not needed. */
    readonly start: BakeStart;
    readonly options: Readonly<ErosionOptions>;
    /** Distance between neighbouring vertices, in metres. */
    readonly cellSize: number;
    /** Cycles the terrain has when the bake ends (counted from the heights it started from). */
    readonly cycles: number;
    readonly device: BakeDevice;
    /** Called after every frame with the batches done and to do, since `start`. */
    readonly onProgress?: (done: number, total: number, cycle: number) => void;
    /** Asked after every frame; true stops the bake there (Ctrl-C). */
    readonly shouldStop?: () => boolean;
}

/**
 * A device's frame that ran whole but asks the bake to stop after it (`TileStallStop`: a tiled
 * bake's jobs stalled past their retries): the bake stops there as if `shouldStop` had said so,
 * with the error's message as the reason.
 */
function stopsAfterFrame(error: unknown): error is Error & { readonly stopsAfterFrame: true } {
    return error instanceof Error && (error as { stopsAfterFrame?: unknown }).stopsAfterFrame === true;
}

/** What a bake ends with. */
export interface BakeResult {
    readonly state: ErosionStateData;
    readonly maps: ErosionMaps;
    /** True when `shouldStop` (or a stall, `stall`) stopped it before `cycles`. */
    readonly stopped: boolean;
    /** Why a stall stopped it (the device's message), else null. */
    readonly stall: string | null;
    /** Batches run. */
    readonly batches: number;
    /** The device's description. */
    readonly device: string;
}

/** The schedule of `request`, at its start state's position. */
function scheduleAt(request: BakeRequest): ErosionSchedule {
    const { start } = request;
    const schedule = new ErosionSchedule({ width: start.width, depth: start.depth, cellSize: request.cellSize }, request.options);
    schedule.resumeAtState(start, request.options);
    return schedule;
}

/** Resolves on the event loop's next turn, after timers and signal handlers that are due. */
function nextTurnOfEventLoop(): Promise<void> {
    return new Promise((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0)));
}

/** Runs `request` to its cycles, or until `shouldStop` says so after a frame. */
export async function runBake(request: BakeRequest): Promise<BakeResult> {
    const { start, device, cycles } = request;
    if (!Number.isInteger(cycles) || cycles < start.cycle) {
        throw new RangeError(`cycles is ${cycles}: it must be an integer no smaller than the ${start.cycle} cycles the terrain already has.`);
    }
    const schedule = scheduleAt(request);
    const total = Math.max(0, (cycles - start.cycle) * schedule.batchesPerCycle - start.batch);
    let done = 0;
    let stopped = false;
    let stall: string | null = null;
    while (schedule.cycle < cycles) {
        const frame = takeFrame(schedule, sameClass).batches;
        if (frame.length === 0) continue; // no operator enabled: an empty cycle
        try {
            await device.runFrame(frame);
        } catch (error) {
            if (!stopsAfterFrame(error)) throw error;
            stall = error.message;
        }
        done += frame.length;
        request.onProgress?.(done, total, schedule.cycle);
        // A device that runs in this thread (one CPU worker) settles its frames in microtasks, so
        // without this the event loop never turns: a Ctrl-C handler or a `shouldStop` timer would
        // not run before the bake ended.
        await nextTurnOfEventLoop();
        if (schedule.cycle < cycles && (stall !== null || request.shouldStop?.())) {
            stopped = true;
            break;
        }
    }
    // The device hands its grids over and lets its scratch go, so the outputs are written from the
    // one state there is (a copy would be the peak of a large bake's memory).
    const { state, maps } = await device.release(schedule.cycle, schedule.batch);
    Object.assign(state, schedule.inputsOf());
    return { state, maps, stopped, stall, batches: done, device: device.description };
}
