/**
 * What a runner holds once it stopped for stalls (`stallRecovery.ts`): the state of its last
 * checkpoint, read-only. Every read answers from it (heights, fingerprint, snapshot, counters,
 * region checksums), a reset or restore replaces it, and no batch runs: a stalled device or worker
 * cannot be asked again, and what it held after the checkpoint is gone. The erosion maps start from
 * zero (the stalled backend held them).
 */
import { regionChecksums } from "../core/checksums/regionChecksums.js";
import type { BatchPieces, CpuBackendDescription, ErosionBackend, FrameResult } from "../core/erosionBackend.js";
import { createMaps, type ErosionMaps } from "../core/erosionMaps.js";
import { cloneState, type ErosionStateData } from "../core/erosionState.js";

/** A backend that runs nothing and answers reads from a state. */
export class HaltedBackend implements ErosionBackend {
    private _state: ErosionStateData;
    private _maps: ErosionMaps;

    /**
     * @param name the backend it replaces (what `backend` still reports)
     * @param state the state it answers from (copied)
     * @param _why why erosion stopped (what a batch asked of it fails with)
     * @param _description what it describes of itself (`describe`): its presenter's, in place of the backend it replaces
     */
    constructor(
        public readonly name: "webgpu" | "cpu",
        state: ErosionStateData,
        private readonly _why: string,
        private readonly _description: CpuBackendDescription | null
    ) {
        this._state = cloneState(state);
        this._maps = createMaps(state.width * state.depth);
    }

    public runFrame(_batches: unknown, _changed: unknown, _texels?: unknown, _pieces?: BatchPieces | null): Promise<FrameResult> {
        return Promise.reject(new Error(`Erosion stopped, so no batch runs: ${this._why}`));
    }

    public describe(): CpuBackendDescription | null {
        return this._description;
    }

    public pieceCount(): number {
        return 1;
    }

    public async readState(cycle: number, batch: number): Promise<ErosionStateData> {
        return { ...cloneState(this._state), cycle, batch };
    }

    public async regionChecksums(size: number): Promise<Uint32Array> {
        return regionChecksums(this._state, size).lanes;
    }

    public async readMaps(): Promise<ErosionMaps> {
        return { water: this._maps.water.slice(), wear: this._maps.wear.slice(), deposition: this._maps.deposition.slice() };
    }

    public async resetMaps(): Promise<void> {
        this._maps = createMaps(this._state.width * this._state.depth);
    }

    public async writeMaps(maps: ErosionMaps): Promise<void> {
        this._maps = { water: maps.water.slice(), wear: maps.wear.slice(), deposition: maps.deposition.slice() };
    }

    public async writeState(state: ErosionStateData): Promise<void> {
        this._state = cloneState(state);
    }

    public dispose(): void {
        // Nothing to release: the state is garbage once the runner lets go of it.
    }
}
