/**
 * The last cycle-boundary state and the options of the cycle that starts there: what erosion
 * resumes from after the WebGPU device is lost. Read back asynchronously after the frame that
 * reaches each boundary.
 */
import { simulationOptions, type SimulationOptions } from "../core/options.js";
import { cloneState, type ErosionStateData } from "../core/erosionState.js";
import type { ErosionSchedule } from "../core/schedule.js";
import type { ErosionBackend } from "../core/erosionBackend.js";
import type { RewindPoint } from "../core/inputLog/rewindPoints.js";

/** The checkpoint of one ground. */
export class Checkpoints {
    private _state: ErosionStateData | null = null;
    /** The simulation options in force for the cycle that starts at the checkpoint (the runtime settings are the behavior's, whenever it resumes). */
    private _options: SimulationOptions | null = null;
    /** Told of every boundary checkpoint as it lands, as a point undo can rewind to. */
    public onPoint: ((point: RewindPoint) => void) | null = null;

    /** The state at the last cycle boundary, or null before the first. */
    public get state(): ErosionStateData | null {
        return this._state;
    }

    /** The simulation options in force for the cycle that starts at the checkpoint (the runtime settings are the behavior's, whenever it resumes). */
    public get options(): SimulationOptions | null {
        return this._options;
    }

    /** Takes `state` (copied) as the checkpoint, with the options the schedule runs its cycle with. */
    public set(state: ErosionStateData, schedule: ErosionSchedule): void {
        this._state = cloneState(state);
        this._options = simulationOptions(schedule.options);
    }

    /** A change made at a cycle boundary is in force for that cycle, so the checkpoint there resumes with it. */
    public noteBoundaryOptions(schedule: ErosionSchedule): void {
        if (schedule.atCycleBoundary && this._state?.cycle === schedule.cycle) {
            this._options = simulationOptions(schedule.options);
        }
    }

    /**
     * What the checkpoint at the boundary the schedule just reached keeps beside the state: the
     * options, masks and events in force there, the inputs held and the log's position. Taken when
     * the frame that reaches it is planned, since the schedule moves on with the next frame.
     */
    public captureBoundary(schedule: ErosionSchedule, history: { readonly lastSeq: number }): BoundaryCapture {
        // The options of the cycle that starts here are already in force (pending ones applied at the boundary).
        return {
            cycle: schedule.cycle,
            options: simulationOptions(schedule.options),
            masks: schedule.masks,
            inputs: schedule.inputsOf(),
            held: [...schedule.inputs.held],
            seq: history.lastSeq,
        };
    }

    /**
     * Reads the cycle-boundary state a frame just reached (`captured` when it was planned). Call it
     * right after the frame that ends there is issued and before any later one, so the read sees
     * exactly the boundary (backends run calls in order). The returned step keeps the checkpoint
     * (unless `current()` is another backend by then) once it is read, then calls `completed`.
     */
    public readAtBoundary(
        backend: ErosionBackend, captured: BoundaryCapture, current: () => ErosionBackend | null, completed: (cycle: number) => void
    ): () => Promise<void> {
        const { cycle, options, masks, inputs, held, seq } = captured;
        const reading = backend.readState(cycle, 0);
        reading.catch(() => undefined); // a failure surfaces through the frame that awaits it
        return async () => {
            const checkpoint = await reading;
            checkpoint.masks = masks;
            Object.assign(checkpoint, inputs);
            if (current() === backend && checkpoint.cycle >= (this._state?.cycle ?? 0)) {
                this._state = checkpoint;
                this._options = options;
                this.onPoint?.({ state: checkpoint, options, held, seq });
            }
            // After the checkpoint is kept: a cycle reported completed has its checkpoint.
            completed(cycle);
        };
    }
}

/** What a checkpoint keeps beside the state (`Checkpoints.captureBoundary`). */
export interface BoundaryCapture {
    readonly cycle: number;
    readonly options: SimulationOptions;
    readonly masks: ErosionStateData["masks"];
    readonly inputs: ReturnType<ErosionSchedule["inputsOf"]>;
    readonly held: ErosionSchedule["inputs"]["held"];
    readonly seq: number;
}
