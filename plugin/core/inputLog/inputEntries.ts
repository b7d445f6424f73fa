/**
 * The entries of the input log: every input that changes the terrain after a run starts, as plain
 * data (no object references; world-to-grid conversions already done), each stamped twice: `at`,
 * the position of the schedule when it was given, and `stamp`, the position where it applies. A
 * run's terrain is a pure function of its start and its entries: re-giving each entry at its `at`
 * gives the same state at every position (`replayInputLog`). Entries are given in `seq` order, and
 * within a run their `at` never goes back, except across a `reset` or a `restore`.
 */
import type { MaskName } from "../erosionState.js";
import type { GroundEdit } from "../groundEdits.js";
import type { LocalErosionEvent } from "../localErosion.js";
import type { SimulationOptions } from "../options.js";
import type { WaterSource } from "../waterSources.js";
import { Fnv1a64 } from "../fingerprint.js";

/** A position of the schedule: `batch` batches of cycle `cycle` (completed cycles) have run. */
export interface InputStamp {
    readonly cycle: number;
    readonly batch: number;
}

/** What an entry does. */
export type InputPayload =
    /** New simulation options (all of them), in force from the next cycle boundary. */
    | { readonly kind: "options"; readonly options: SimulationOptions }
    /** A mask set (Q16 per vertex) or cleared (null), from the next cycle boundary. */
    | { readonly kind: "mask"; readonly name: MaskName; readonly values: Int32Array | null }
    /** A local erosion event (`erodeAt`), in force from the next cycle boundary. */
    | { readonly kind: "erodeAt"; readonly event: LocalErosionEvent }
    /** The whole list of water sources after a change, in force from the next cycle boundary. */
    | { readonly kind: "sources"; readonly sources: readonly WaterSource[] }
    /** A ground edit, stamped (its `cycle`, `batch`) and numbered (`id`). */
    | { readonly kind: "edit"; readonly edit: GroundEdit }
    /** Back to the start heights at cycle 0 (`heights` is the FNV-1a 64 of those heights, to check the replay's). */
    | { readonly kind: "reset"; readonly heights: string }
    /** A snapshot put in force (its bytes, `ErosionSnapshot.toArrayBuffer`). */
    | { readonly kind: "restore"; readonly snapshot: Uint8Array }
    /** Takes back entry `target` (as if it had never been given); the terrain rewinds and replays. */
    | { readonly kind: "undo"; readonly target: number }
    /** Gives back entry `target`, undone before. */
    | { readonly kind: "redo"; readonly target: number };

/** The kinds of entry. */
export type InputKind = InputPayload["kind"];

/** Every kind, in the log format's order. */
export const INPUT_KINDS: readonly InputKind[] = ["options", "mask", "erodeAt", "sources", "edit", "reset", "restore", "undo", "redo"];

/** The kinds `undo` can take back: a user's inputs (not a reset, a restore, nor an undo). */
export const UNDOABLE_KINDS: readonly InputKind[] = ["options", "mask", "erodeAt", "sources", "edit"];

/** The kinds that wait for a cycle boundary (their stamp's batch is 0). */
export const BOUNDARY_KINDS: readonly InputKind[] = ["options", "mask", "erodeAt", "sources"];

/** One entry of the log. */
export type InputEntry = InputPayload & {
    /** Its number in the log (1, 2, ...): entries are given in this order. */
    readonly seq: number;
    /** Where the schedule stood when it was given. */
    readonly at: InputStamp;
    /** Where it applies (at or after `at`). */
    readonly stamp: InputStamp;
    /**
     * The player whose input it is, in a lockstep game (set by the host): what a player's own undo
     * and redo take back and give again. Absent for the run's own inputs.
     */
    readonly player?: string;
};

/** Negative when `a` comes before `b`, 0 when equal. */
export function compareStamps(a: InputStamp, b: InputStamp): number {
    return a.cycle !== b.cycle ? a.cycle - b.cycle : a.batch - b.batch;
}

/** "cycle 3, batch 12". */
export function formatStamp(stamp: InputStamp): string {
    return `cycle ${stamp.cycle}, batch ${stamp.batch}`;
}

/** FNV-1a 64 of fixed-point start heights: what a reset entry names the heights it goes back to by. */
export function startHeightsHash(heights: Int32Array): string {
    const hash = new Fnv1a64();
    hash.words(heights);
    return hash.hex();
}
