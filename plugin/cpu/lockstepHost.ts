/**
 * The authoritative side of a lockstep game, without networking (a server wraps it in its own
 * transport): one CPU simulation that takes the players' requests, shapes and stamps them where it
 * stands, runs, and says how far clients may run. Every input is stamped at or after the host's
 * position and every client runs no further than the last position the host announced
 * (`horizon`), so an input always reaches a client before the client reaches its stamp: every
 * player's terrain is the host's, to the unit.
 *
 * The host trusts no player: a player sends a request (`PlayerInput`: a dig at a point with a
 * radius and a depth, never heights), checked whole and against the player's limits, and the host
 * makes the entry itself with the code every peer runs. A player's undo takes back that player's
 * own last input. A refused request is never applied nor broadcast; it throws a
 * `PlayerRefusedError` naming the reason, and after `maxRefusals` says to disconnect the player.
 *
 * A client forwards its requests (`TerrainErosion.forwardInputs`); the host `submit`s each with the
 * player's name and broadcasts the entry it returns; clients `give` the entries and move their
 * `horizon` to the host's. A joining player gets `join()`: a snapshot and the log since it.
 */
import { CpuErosionSimulation } from "./cpuSimulation.js";
import type { InputEntry, InputStamp } from "../core/inputLog/inputEntries.js";
import type { ErosionStateData } from "../core/erosionState.js";
import { ErosionSnapshot } from "../core/snapshot.js";
import { readRegions, type RegionPatch } from "../core/checksums/regionRepair.js";
import { DEFAULT_CHECKSUM_REGION, type RegionChecksums } from "../core/checksums/regionChecksums.js";
import { shapeGroundEdit } from "../core/groundEdits.js";
import { resolveOptions, RUNTIME_SETTINGS } from "../core/options.js";
import { withSourceAdded } from "../core/waterSources.js";
import { checkLocalEvent, checkMaskValues, refuserFor } from "../core/inputLog/inputChecks.js";
import { checkPlayerInput, type PlayerInput } from "../core/lockstep/playerInputs.js";
import { PlayerGate, PlayerRefusedError, resolvePlayerLimits, type PlayerLimits } from "../core/lockstep/playerLimits.js";
import { editReach } from "../core/lockstep/editReach.js";
import type { InputHistory } from "../core/inputLog/inputHistory.js";
import { playerStepEntry } from "../core/inputLog/historyPlans.js";
import { FINGERPRINT_TAG } from "../core/fingerprint.js";

/** What a joining player needs: the host's state now and the inputs since it that still wait. */
export interface LockstepJoin {
    /** `ErosionSnapshot.toArrayBuffer()` of the host's state. */
    readonly snapshot: Uint8Array;
    /** The entries a replay from it needs (`inputsSince`). */
    readonly entries: readonly InputEntry[];
    /** Where the host stands: the joiner's first horizon. */
    readonly horizon: InputStamp;
    /**
     * The run's start and its log up to the snapshot (`CpuErosionSimulation.history`): what the
     * joiner records so that an undo of an input given before it joined is the host's undo too.
     */
    readonly history: InputHistory;
    /** The simulation contract's tag (`FINGERPRINT_TAG`): a joiner of another version must refuse. */
    readonly contract: string;
}

/** How a host treats its players. */
export interface LockstepHostOptions {
    /** Per-player limits (see `PlayerLimits`; each field defaults). */
    readonly limits?: Partial<PlayerLimits>;
    /**
     * The game's own rule: a reason to refuse `input` from `player`, or null to take it (default:
     * every request a player may make is taken). Who may change options or masks, or undo at all, is
     * the game's to decide here.
     */
    readonly allow?: (input: PlayerInput, player: string) => string | null;
    /** The clock the players' rates are measured by, ms (default `performance.now`). */
    readonly now?: () => number;
    /** States kept at the last checksum stamps, for repairs there (`regions(list, size, stamp)`). Default 3. */
    readonly keptStates?: number;
}

/** The host of a lockstep game. */
export class LockstepHost {
    /** The players' book: their limits, rates and refusals (a server checks messages against it too). */
    public readonly players: PlayerGate;
    private readonly _allow: LockstepHostOptions["allow"];
    /** Each player's springs: the tag it chose, and the source's id in the state. */
    private readonly _springs = new Map<string, Map<number, number>>();
    /** The states at the last stamps checksums were announced for, oldest first. */
    private readonly _kept: { readonly stamp: InputStamp; readonly state: ErosionStateData }[] = [];
    private readonly _keptStates: number;

    /** @param simulation the authoritative simulation (the same start heights, options and seed as every client's) */
    constructor(
        public readonly simulation: CpuErosionSimulation,
        options: LockstepHostOptions = {}
    ) {
        const { width, depth } = simulation.field;
        this.players = new PlayerGate(resolvePlayerLimits(options.limits, width * depth), options.now);
        this._allow = options.allow;
        this._keptStates = options.keptStates ?? 3;
        if (!Number.isInteger(this._keptStates) || this._keptStates < 0)
            throw new RangeError(`LockstepHost: keptStates is ${JSON.stringify(options.keptStates)}: it must be a whole number, at least 0.`);
    }

    /** Where the host stands: clients may run up to here. */
    public get horizon(): InputStamp {
        return this.simulation.stamp;
    }

    /**
     * Takes `player`'s request (a `PlayerInput`, as sent: it is checked whole here), shapes it where
     * the host stands (an edit at this position; options, masks, local events and springs at the next
     * cycle boundary; an undo or redo of the player's own input here), applies it, and returns the
     * entry every client must be given, or null when it changes nothing (an undo with nothing of the
     * player's to take back, a removed spring that is gone). Throws a `PlayerRefusedError` naming the
     * reason for a request it does not take: nothing of it is applied.
     */
    public submit(raw: unknown, player: string): InputEntry | null {
        if (typeof player !== "string" || player.length < 1 || player.length > 64)
            throw new RangeError(`LockstepHost.submit: player is ${JSON.stringify(player)}: it must be a name of 1 to 64 characters.`);
        try {
            const input = checkPlayerInput(raw, refuserFor("the request"));
            const rule = this._allow?.(input, player) ?? null;
            if (rule !== null) throw new RangeError(rule);
            this.players.takeInput(player);
            return this._apply(input, player);
        } catch (error) {
            if (error instanceof PlayerRefusedError) throw error;
            if (error instanceof RangeError) throw this.players.refuse(player, error.message);
            throw error;
        }
    }

    private _apply(input: PlayerInput, player: string): InputEntry | null {
        const simulation = this.simulation;
        const { schedule } = simulation;
        const { width, depth } = simulation.field;
        const limits = this.players.limits;
        const lastSeq = simulation.log.lastSeq;
        switch (input.kind) {
            case "edit": {
                if (input.points.length > limits.maxPathPoints)
                    throw new RangeError(`the edit's path has ${input.points.length} points: at most ${limits.maxPathPoints}`);
                // Measured before shaping: shaping costs the rectangle's vertices times the path's points.
                const reach = editReach(input, width, depth);
                if (reach > limits.maxEditVertices) throw new RangeError(`the edit would cover ${reach} vertices: at most ${limits.maxEditVertices}`);
                const shape = shapeGroundEdit(input.edit, input.points, input.radius, width, depth, schedule.options.tileable);
                schedule.stampEdit(shape, undefined, player);
                simulation.runUntil(simulation.stamp); // stamped here, it applies at once
                break;
            }
            case "erodeAt": {
                const event = checkLocalEvent(input.event, simulation.field, refuserFor("the event"));
                if (event.droplets > limits.maxEventDroplets)
                    throw new RangeError(`the event rains ${event.droplets} droplets: at most ${limits.maxEventDroplets}`);
                schedule.inputs.give({ kind: "erodeAt", event }, undefined, undefined, player);
                break;
            }
            case "options": {
                // The runtime settings are each machine's own (the host's frame budget, undo memory): no player sets them.
                const runtime = Object.keys(input.options).filter((name) => (RUNTIME_SETTINGS as readonly string[]).includes(name));
                if (runtime.length > 0)
                    throw new RangeError(`its options set ${runtime.join(", ")}: runtime settings are each machine's own, not the shared game's`);
                schedule.setOptions(resolveOptions(input.options, schedule.latestOptions), player);
                break;
            }
            case "mask":
                schedule.inputs.give(
                    { kind: "mask", name: input.name, values: checkMaskValues(input.name, input.values, width * depth, refuserFor("the mask")) }, undefined,
                    undefined, player
                );
                break;
            case "addSource": {
                const springs = this._springs.get(player) ?? new Map<number, number>();
                if (springs.has(input.tag) && schedule.latestSources.some((source) => source.id === springs.get(input.tag)))
                    throw new RangeError(`its spring tag ${input.tag} is in use: each spring needs a tag of its own`);
                const { sources, id } = withSourceAdded(schedule.latestSources, input.x, input.y, input.radius, input.rate, width, depth);
                schedule.inputs.give({ kind: "sources", sources }, undefined, undefined, player);
                springs.set(input.tag, id);
                this._springs.set(player, springs);
                break;
            }
            case "removeSource": {
                const id = this._springs.get(player)?.get(input.tag);
                if (id === undefined) throw new RangeError(`it has no spring tagged ${input.tag}`);
                if (!schedule.latestSources.some((source) => source.id === id)) return null; // gone already (undone, reset)
                schedule.inputs.give({ kind: "sources", sources: schedule.latestSources.filter((source) => source.id !== id) }, undefined, undefined, player);
                break;
            }
            case "undo":
            case "redo": {
                // A player's undo takes back that player's own last input (`playerStepEntry`), never another's.
                const entry = playerStepEntry(simulation.log, input.kind, player, simulation.stamp);
                if (!entry) return null;
                simulation.give(entry);
                break;
            }
        }
        return simulation.log.lastSeq > lastSeq ? simulation.log.entries.at(-1)! : null;
    }

    /** Runs `batches` more batches (ground edits due on the way included); returns the new horizon. */
    public advance(batches: number): InputStamp {
        for (let k = 0; k < batches; k++) this.simulation.runBatch();
        return this.horizon;
    }

    /** A joining player's start: the host's snapshot, the log since it, and the horizon. */
    public join(): LockstepJoin {
        const snapshot = this.simulation.snapshot();
        return {
            snapshot: new Uint8Array(snapshot.toArrayBuffer()),
            entries: this.simulation.inputsSince(snapshot),
            horizon: this.horizon,
            history: this.simulation.history(snapshot.logSeq),
            contract: FINGERPRINT_TAG,
        };
    }

    /**
     * The region checksums where the host stands, for clients to compare when they stand there too.
     * The state there is kept (the last `keptStates`), so a client that parted there can be repaired
     * there later (`regions(list, size, stamp)`).
     */
    public checksums(size = DEFAULT_CHECKSUM_REGION): { readonly stamp: InputStamp; readonly checksums: RegionChecksums } {
        const stamp = this.horizon;
        if (this._keptStates > 0 && !this._keptAt(stamp)) {
            this._kept.push({ stamp, state: this.simulation.getState() });
            if (this._kept.length > this._keptStates) this._kept.shift();
        }
        return { stamp, checksums: this.simulation.regionChecksums(size) };
    }

    /** The stamps whose states are kept for repairs, oldest first. */
    public get keptStamps(): readonly InputStamp[] {
        return this._kept.map(({ stamp }) => stamp);
    }

    /**
     * The state of some regions where the host stands, or at `stamp`, a stamp checksums were
     * announced for and still kept: what a client that parted there repairs with. Null when the state
     * at `stamp` is no longer kept (the client should join again).
     */
    public regions(regions: readonly number[], size?: number): { readonly stamp: InputStamp; readonly patch: RegionPatch };
    public regions(regions: readonly number[], size: number, stamp: InputStamp): { readonly stamp: InputStamp; readonly patch: RegionPatch } | null;
    public regions(
        regions: readonly number[], size = DEFAULT_CHECKSUM_REGION, stamp?: InputStamp
    ): { readonly stamp: InputStamp; readonly patch: RegionPatch } | null {
        if (stamp === undefined) return { stamp: this.horizon, patch: readRegions(this.simulation.getState(), size, regions) };
        const kept = this._keptAt(stamp);
        return kept ? { stamp: kept.stamp, patch: readRegions(kept.state, size, regions) } : null;
    }

    private _keptAt(stamp: InputStamp) {
        return this._kept.find((kept) => kept.stamp.cycle === stamp.cycle && kept.stamp.batch === stamp.batch);
    }

    /** The snapshot where the host stands (a save of the shared game). */
    public snapshot(): ErosionSnapshot {
        return this.simulation.snapshot();
    }
}
