/**
 * The CPU backend on several cores: the thread that owns the state (the coordinator) and helper
 * workers run each class of a frame's batches together, and a river batch phase by phase in bands
 * of rows, as the GPU runs a class in one dispatch. A class's batches cannot reach each other and a
 * river phase's bands write only their own rows, so the result is the one-thread result to the unit
 * (the fingerprint does not depend on the number of members or on shared memory).
 *
 * With shared memory (Node, or a cross-origin isolated page) every member works on the same
 * `SharedArrayBuffer`s and a phase's messages carry only its tasks. Without (a page that is not
 * isolated, such as the Playground), each helper keeps its own copies of the grids: a phase sends it
 * the rows its tasks read and it sends back the cells it changed, which no other member of the
 * phase writes; a river batch then runs on this thread alone.
 */
import {
    ensureWater, prepareMaterials, type RiverPhase, riverPhaseBand, riverPhases, riverRoots, splitRoots, tileSeam, VertexList,
} from "../../kernels/index.js";
import { pieceCount, type CpuBatchRunner } from "../cpuBatchRunner.js";
import { CPU_OPERATORS } from "../cpuOperators.js";
import type { ErosionMasks } from "../../core/erosionState.js";
import type { PlannedBatch } from "../../core/schedule.js";
import { allGrids, applyChanges, cellsOf, copyRows, ensureGrid, isShared, mergeRows, setGrid, sharedCopy } from "./poolGrids.js";
import type { PoolPort, SpawnHelper } from "./poolPorts.js";
import { PoolMember, taskGrids, taskReadRows, type PhaseWindow, type PoolReply, type PoolRequest, type PoolTask, type PooledBatch } from "./poolTasks.js";

/** How a pool is made. */
export interface CpuPoolOptions {
    /** Members, the coordinator included (at least 2: one member is no pool). */
    readonly members: number;
    /** Share the grids' memory (needs `SharedArrayBuffer`); otherwise copy rows to the helpers. */
    readonly shared: boolean;
    readonly spawn: SpawnHelper;
}

/** One helper and its unanswered phases. */
class HelperLink {
    private readonly _pending: ((reply: PoolReply) => void)[] = [];
    private _failure: string | null = null;

    constructor(private readonly _port: PoolPort) {
        _port.onMessage((data) => this._pending.shift()?.(data as PoolReply));
        _port.onFailure((message) => {
            this._failure ??= message;
            for (const resolve of this._pending.splice(0)) resolve({ type: "error", message });
        });
    }

    public post(message: PoolRequest, transfer: Transferable[] = []): void {
        this._port.post(message, transfer);
    }

    public request(message: PoolRequest, transfer: Transferable[] = []): Promise<PoolReply> {
        if (this._failure !== null) return Promise.resolve({ type: "error", message: this._failure });
        return new Promise((resolve) => {
            this._pending.push(resolve);
            this._port.post(message, transfer);
        });
    }

    public terminate(): void {
        this._failure ??= "the CPU erosion pool was disposed";
        this._port.terminate();
    }
}

function pooled(planned: PlannedBatch): PooledBatch {
    const { masks: _masks, ...rest } = planned;
    return rest;
}

/** Runs a runner's batches on its thread and helper workers. */
export class CpuPool {
    private readonly _member: PoolMember;
    private readonly _sentGrids = new Map<string, Int32Array | Uint32Array>();
    private _sentMasks: ErosionMasks | null = null;
    /** The slot forest's roots, found before each river walk. */
    private readonly _roots = new VertexList();

    private constructor(
        private readonly _runner: CpuBatchRunner,
        private readonly _helpers: HelperLink[],
        /** Whether the members share the grids' memory. */
        public readonly shared: boolean,
        private readonly _sync: Int32Array | null
    ) {
        this._member = new PoolMember(_runner);
    }

    /** Starts `options.members - 1` helpers for `runner`, or answers null where they cannot start. */
    public static create(runner: CpuBatchRunner, options: CpuPoolOptions): CpuPool | null {
        const shared = options.shared && typeof SharedArrayBuffer !== "undefined";
        const sync = shared ? new Int32Array(new SharedArrayBuffer(4)) : null;
        const helpers: HelperLink[] = [];
        for (let k = 1; k < options.members; k++) {
            const port = options.spawn();
            if (!port) {
                for (const helper of helpers) helper.terminate();
                return null;
            }
            const helper = new HelperLink(port);
            helper.post({ type: "init", width: runner.state.width, depth: runner.state.depth, shared, sync });
            helpers.push(helper);
        }
        return helpers.length > 0 ? new CpuPool(runner, helpers, shared, sync) : null;
    }

    /** Members, the coordinator included. */
    public get members(): number {
        return this._helpers.length + 1;
    }

    /** Runs `batches` in order: what `runner.run` of each gives, to the unit. */
    public async runBatches(batches: readonly PlannedBatch[]): Promise<void> {
        for (let first = 0; first < batches.length; ) {
            const planned = batches[first];
            let end = first + 1;
            // Made here, once, before any member runs a batch with them (each would make its own).
            if (planned.params.materials !== 0) prepareMaterials(this._runner.state, planned);
            const row = CPU_OPERATORS[planned.operator];
            if (row.pool === "alone") {
                this._runner.runKernels(planned); // one rectangle's integers: not worth a phase
            } else if (row.pool === "river" && !this.shared) {
                // Copying a river batch's rows to the helpers phase by phase (about 70 phases) costs
                // more than the helpers save: 236 ms against 195 ms on one worker (513², 2 workers).
                this._runner.runKernels(planned);
            } else if (row.pool === "river") {
                await this._riverBatch(planned);
            } else {
                while (
                    end < batches.length &&
                    batches[end].group === planned.group &&
                    batches[end].cycle === planned.cycle &&
                    CPU_OPERATORS[batches[end].operator].pool !== "river"
                )
                    end++;
                if (row.needsWater) ensureWater(this._runner.state);
                const shares: PoolTask[][] = Array.from({ length: this.members }, () => []);
                for (let k = first; k < end; k++) shares[(k - first) % this.members].push({ kind: "batch", planned: pooled(batches[k]) });
                await this._phase(shares, planned.masks);
            }
            if (planned.params.seam !== 0) {
                // Once for the class, as the GPU makes it: the seam copies the whole seam.
                const state = this._runner.state;
                tileSeam(planned.params, state.heights, state.drainageArea, state.counters, state.materials?.soil ?? null);
            }
            first = end;
        }
    }

    /**
     * Runs pieces `from .. to - 1` of a river batch (its phases, `pieceCount`), and the seam with the
     * last; any cut gives `runBatches`' integers.
     */
    public async runPieces(planned: PlannedBatch, from: number, to: number): Promise<void> {
        if (!this.shared) {
            this._runner.runPieces(planned, from, to); // as runBatches: one thread for a river batch without shared memory
            return;
        }
        if (planned.params.materials !== 0) prepareMaterials(this._runner.state, planned);
        await this._riverBatch(planned, from, to);
        if (to === pieceCount(planned) && planned.params.seam !== 0) {
            const state = this._runner.state;
            tileSeam(planned.params, state.heights, state.drainageArea, state.counters, state.materials?.soil ?? null);
        }
    }

    private async _riverBatch(planned: PlannedBatch, from = 0, to = Infinity): Promise<void> {
        const scratch = this._runner.riverScratch();
        const { params } = planned;
        for (const phase of riverPhases(params, planned.riverSteps, true).slice(from, to)) {
            // Band b always goes to member b: its donors, listed in one phase, serve the next. The
            // walk goes by trees instead: its roots, found once the slots are, split by size.
            const walkShares =
                phase.kind === "walk"
                    ? splitRoots(riverRoots(params, scratch.riverSlots, this._roots), scratch.areaNext, this.members, params.width * params.depth)
                    : null;
            const shares = Array.from({ length: this.members }, (_, band): PoolTask[] => {
                const share: RiverPhase = walkShares !== null && phase.kind === "walk" ? { ...phase, roots: walkShares[band] } : phase;
                return [{ kind: "river", params, phase: share, rows: riverPhaseBand(params, phase, band, this.members) }];
            });
            await this._phase(shares, planned.masks);
        }
    }

    /** Runs one phase: `shares[0]` here, `shares[k]` on helper k - 1, then gathers their counters and changes. */
    private async _phase(shares: PoolTask[][], masks: ErosionMasks): Promise<void> {
        if (this.shared) this._shareGrids();
        if (masks !== this._sentMasks) {
            for (const helper of this._helpers) helper.post({ type: "masks", masks });
            this._sentMasks = masks;
        }
        if (this._sync) Atomics.add(this._sync, 0, 1); // publish this thread's writes to the helpers
        const replies: Promise<PoolReply>[] = [];
        const windows: (PhaseWindow | null)[] = [];
        this._helpers.forEach((helper, k) => {
            const tasks = shares[k + 1];
            if (tasks.length === 0) return;
            const window = this.shared ? null : this._window(tasks);
            windows.push(window);
            replies.push(
                helper.request({ type: "phase", tasks, window }, window ? Object.values(window.grids).map((cells) => cells.buffer as ArrayBuffer) : [])
            );
        });
        for (const task of shares[0]) this._member.run(task, masks);
        const answers = await Promise.all(replies);
        if (this._sync) Atomics.load(this._sync, 0); // see the helpers' writes
        const counters = this._runner.state.counters;
        for (const answer of answers) {
            if (answer.type === "error") throw new Error(`CPU erosion pool worker: ${answer.message}`);
            answer.counters.forEach((value, index) => (counters[index] += value));
            if (answer.changes) {
                for (const [name, changes] of Object.entries(answer.changes)) applyChanges(cellsOf(ensureGrid(this._runner, name)), changes);
            }
        }
    }

    /** The rows of the grids a helper without shared memory needs for `tasks` (batches), copied. */
    private _window(tasks: readonly PoolTask[]): PhaseWindow {
        const { width, depth } = this._runner.state;
        const batches = tasks.filter((task): task is Extract<PoolTask, { kind: "batch" }> => task.kind === "batch");
        if (batches.length !== tasks.length) throw new Error("Internal error: a river phase reached a CPU erosion pool without shared memory.");
        const rows = mergeRows(batches.map(taskReadRows), depth);
        const grids: Record<string, Int32Array> = {};
        for (const name of new Set(batches.flatMap(taskGrids))) grids[name] = copyRows(cellsOf(ensureGrid(this._runner, name)), width, rows);
        return { rows, grids };
    }

    /** Moves any grid not yet in shared memory there (a new state, new maps, the water's first run) and sends the helpers what changed. */
    private _shareGrids(): void {
        const update: Record<string, Int32Array | Uint32Array> = {};
        for (let [name, grid] of allGrids(this._runner)) {
            if (!isShared(grid)) {
                grid = sharedCopy(grid);
                setGrid(this._runner, name, grid);
            }
            if (this._sentGrids.get(name) !== grid) {
                update[name] = grid;
                this._sentGrids.set(name, grid);
            }
        }
        if (Object.keys(update).length > 0) {
            for (const helper of this._helpers) helper.post({ type: "grids", grids: update });
        }
    }

    /** Stops the helpers. */
    public dispose(): void {
        for (const helper of this._helpers) helper.terminate();
    }
}
