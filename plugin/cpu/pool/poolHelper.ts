/**
 * A helper of the CPU worker pool, in its own worker: it runs the tasks the coordinator
 * (`cpuPool.ts`) gives it, on the shared grids or, without shared memory, on its own copies, into
 * which each phase's rows are written first and from which the cells it changed are sent back.
 */
import { CpuBatchRunner } from "../cpuBatchRunner.js";
import { blankState, noMasks, type ErosionMasks } from "../../core/erosionState.js";
import { cellsOf, changedCells, ensureGrid, setGrid, writeRows, type CellChanges } from "./poolGrids.js";
import { PoolMember, type PhaseWindow, type PoolReply, type PoolRequest, type PoolTask } from "./poolTasks.js";

/** Answers the coordinator's messages. */
export class PoolHelper {
    private _member: PoolMember | null = null;
    private _masks: ErosionMasks = noMasks();
    private _sync: Int32Array | null = null;
    private _width = 0;
    /** A failure of an unanswered message ("init", "grids", "masks"), reported by the next phase. */
    private _failure: string | null = null;

    /** Handles one message; answers "phase" messages only (the coordinator waits for no other answer). */
    public handle(request: PoolRequest): PoolReply | null {
        if (this._failure !== null && request.type === "phase") return { type: "error", message: this._failure };
        try {
            switch (request.type) {
                case "init":
                    this._init(request.width, request.depth, request.shared);
                    this._sync = request.sync;
                    return null;
                case "grids":
                    for (const [name, grid] of Object.entries(request.grids)) setGrid(this._live().runner, name, grid);
                    return null;
                case "masks":
                    this._masks = request.masks;
                    return null;
                case "phase":
                    return this._phase(request.tasks, request.window);
            }
        } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            if (request.type === "phase") return { type: "error", message };
            this._failure ??= message;
            return null;
        }
    }

    private _init(width: number, depth: number, shared: boolean): void {
        this._width = width;
        // With shared memory the grids arrive next; without, this member keeps its own copies.
        this._member = new PoolMember(new CpuBatchRunner(blankState(width, depth, shared ? 0 : width * depth)));
    }

    private _live(): PoolMember {
        if (!this._member) throw new Error("CPU erosion pool member used before init.");
        return this._member;
    }

    private _phase(tasks: readonly PoolTask[], window: PhaseWindow | null): PoolReply {
        const member = this._live();
        const runner = member.runner;
        if (this._sync) Atomics.load(this._sync, 0); // see the coordinator's writes to shared memory
        const counters = runner.state.counters;
        counters.fill(0);
        if (window) {
            // This member's own copies: the rows the phase reads are written in first.
            for (const [name, rows] of Object.entries(window.grids)) writeRows(cellsOf(ensureGrid(runner, name)), this._width, window.rows, rows);
        }
        for (const task of tasks) member.run(task, this._masks);
        let changes: Record<string, CellChanges> | null = null;
        if (window) {
            changes = {};
            for (const [name, before] of Object.entries(window.grids)) {
                changes[name] = changedCells(cellsOf(ensureGrid(runner, name)), this._width, window.rows, before);
            }
        }
        if (this._sync) Atomics.add(this._sync, 0, 1); // publish this member's writes before answering
        return { type: "done", counters: counters.slice(), changes };
    }
}
