/**
 * Where a behavior's start stands, from attach to its first batch on the mesh: what a game shows
 * while the erosion starts ("compiling kernels 12 of 40...") and what the bench times. Phases, in
 * order: `creating-buffers` (WebGPU: the simulation's storage buffers), `compiling-kernels` (WebGPU:
 * the WGSL kernels compile asynchronously, before any dispatch),
 * `starting-workers` (the CPU backend's worker pool and its copy of the state), `uploading` (the
 * state into the GPU's buffers), `first-batch` (the backend ready, the first frame's batches on
 * their way), `running` (the first batches reached the mesh). `failed` if no backend started.
 */

/** A start-up phase. */
export type StartupPhase = "creating-buffers" | "compiling-kernels" | "starting-workers" | "uploading" | "first-batch" | "running" | "failed";

/** What `startup` and `onStartupObservable` report. */
export interface ErosionStartup {
    /** The phase now. */
    readonly phase: StartupPhase;
    /** Kernels compiled so far, and how many the backend compiles before its first dispatch (0 on the CPU backend). */
    readonly kernelsCompiled: number;
    readonly kernels: number;
    /** Milliseconds since the attach. */
    readonly ms: number;
    /** Each phase reached, with the milliseconds since the attach it began at. */
    readonly phases: readonly { readonly phase: StartupPhase; readonly ms: number }[];
}

/** Follows a start; `changed` hears every step (a phase begun, a kernel compiled). */
export class StartupProgress {
    private readonly _started = performance.now();
    private _phase: StartupPhase | null = null;
    private _kernelsCompiled = 0;
    private _kernels = 0;
    private readonly _phases: { phase: StartupPhase; ms: number }[] = [];

    constructor(private readonly _changed: (startup: ErosionStartup) => void) {}

    public get current(): ErosionStartup {
        return {
            phase: this._phase ?? "starting-workers",
            kernelsCompiled: this._kernelsCompiled,
            kernels: this._kernels,
            ms: performance.now() - this._started,
            phases: this._phases.slice(),
        };
    }

    /** True once the first batches reached the mesh (or the start failed). */
    public get done(): boolean {
        return this._phase === "running" || this._phase === "failed";
    }

    /** Enters `phase` (a phase already reached or passed is ignored). */
    public enter(phase: StartupPhase): void {
        if (this._phase === phase || this.done) return;
        this._phase = phase;
        this._phases.push({ phase, ms: performance.now() - this._started });
        this._changed(this.current);
    }

    /** `compiled` of `total` kernels compiled. */
    public kernels(compiled: number, total: number): void {
        this._kernelsCompiled = compiled;
        this._kernels = total;
        if (this._phase !== "compiling-kernels") this.enter("compiling-kernels");
        else this._changed(this.current);
    }
}
