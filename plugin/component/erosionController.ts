/**
 * `ErosionController`: what `TerrainErosion` (one ground, a Babylon behavior) and
 * `TerrainErosionWorld` (a grid of grounds) share: the options, observables, attach and status of
 * `ErosionLifecycle`, and here every operation on the eroded field, each handed to the
 * `ErosionRunner` that does the work. Subclasses decide what is eroded and when (`_bind` and
 * `_unbind`).
 */
import * as reads from "./runnerReads.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import type { ErosionCounters } from "../core/counters.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import type { MaskName } from "../core/erosionState.js";
import type { LocalErosionInput } from "../core/localErosion.js";
import type { ErosionSnapshot } from "../core/snapshot.js";
import type { WaterMaps } from "../core/waterMaps.js";
import type { MaterialMaps } from "../core/materialMaps.js";
import type { MapTextureName } from "./runnerMaps.js";
import { encodeHeightsPng16, type HeightRange } from "../terrain/index.js";
import { ErosionLifecycle } from "./erosionLifecycle.js";
import { assertMaskName } from "./masks.js";
import { addWaterSourceAt, forwardWaterSource, removeWaterSource, type WaterSourceHandle } from "./waterSources.js";
import type { PlayerInput } from "../core/lockstep/playerInputs.js";
import type { InputHistory } from "../core/inputLog/inputHistory.js";
import { stampEditAt, type GroundEditHandle, type GroundEditInput, type WorldPoint } from "./groundEditsAt.js";
import { compareStamps, formatStamp, type InputEntry, type InputStamp } from "../core/inputLog/inputEntries.js";
import type { UndoMemory } from "./runnerRewind.js";
import { emptyStepAtOnce } from "./emptyUndo.js";
import { checkRegions, repairRegions } from "./regionChecks.js";
import type { RegionPatch } from "../core/checksums/regionRepair.js";
import { DEFAULT_CHECKSUM_REGION, regionGrid, validateRegionSize, type RegionChecksums } from "../core/checksums/regionChecksums.js";

/** The options, observables and operations shared by `TerrainErosion` and `TerrainErosionWorld`. */
export abstract class ErosionController extends ErosionLifecycle<ErosionController> {
    /** Starts (or resumes) eroding every frame; stopped after stalls, it first rebuilds the backend where the run stands. */
    public start(): void {
        this._live("start").start();
    }

    /** Stops eroding after the frame in progress; `start()` resumes from the same batch. */
    public pause(): void {
        if (this._runner) this._runner.running = false;
    }

    /**
     * Advances to the `count`-th next cycle boundary now (finishing a cycle in progress counts as
     * one), for tools, baking and tests; the mesh's CPU data is up to date when it resolves.
     */
    public runCycles(count: number): Promise<void> {
        if (!Number.isInteger(count) || count < 0) {
            return Promise.reject(new RangeError(`runCycles: count is ${count}: it must be a non-negative integer.`));
        }
        return this._withRunner("runCycles", (runner) => runner.runCycles(count));
    }

    /**
     * Local erosion during gameplay: rains droplets over a disc of `radius` world units around
     * `worldPosition` (its x and z, in the ground's local space, so a moved, rotated or scaled ground
     * works), from the next cycle boundary, through the same patch system and frame budget. It
     * changes nothing farther from the disc than a walk can reach (maxSteps + brushRadius + 1
     * cells), is deterministic given its inputs and that cycle, and is recorded in the state, so
     * `reset()` (which clears it), `snapshot()` and `fingerprint()` stay consistent.
     * @param options droplets (default two per cell of the disc) and droplet options for this event
     */
    public erodeAt(worldPosition: { x: number; y: number; z: number }, radius: number, options: LocalErosionInput = {}): void {
        this._live("erodeAt").erodeAt(worldPosition, radius, options);
    }

    /**
     * Digs a pit: lowers the ground by up to `depth` world units at `worldPosition`, falling smoothly
     * to nothing `radius` world units away. Like every ground edit it is stamped at the run's
     * current position and applies before the next batch, paused or not (seen on the mesh within a
     * couple of frames); it is integer, the same on both backends, recorded in the state until it
     * applies (snapshots, `fingerprint()`), and counted (`readCounters().editRemoved`). The material
     * is gone, or with `options.keep: "sediment"` becomes the shallow water's loose sediment where
     * it was dug (the water carries it off, or lays it down again where it cannot); `crater` keeps
     * it as a rim.
     */
    public dig(worldPosition: WorldPoint, radius: number, depth: number, options: { keep?: "gone" | "sediment" } = {}): GroundEditHandle {
        return this._edit("dig", [worldPosition], radius, { dig: depth, keep: options.keep });
    }

    /**
     * Piles material: raises the ground by up to `height` world units at `worldPosition`, falling
     * smoothly to nothing `radius` world units away (`editAdded`). With the materials on it is loose
     * soil, or with `options.rock` rock of that hardness (times the soil's, in [1, 1000]). See `dig`.
     */
    public pile(worldPosition: WorldPoint, radius: number, height: number, options: { rock?: number } = {}): GroundEditHandle {
        return this._edit("pile", [worldPosition], radius, options.rock === undefined ? { pile: height } : { pile: height, rock: options.rock });
    }

    /**
     * Levels the ground toward a height (a foundation, a road): to `options.to` (a world y; default
     * `worldPosition.y`) fully within `(1 - edge)` of `radius` world units, less and less to the
     * edge (`options.edge`, a share of the radius in [0, 1], default 0.3); what it fills is rock of
     * hardness `options.rock` (times the soil's) with the materials on, else loose soil. See `dig`.
     */
    public flatten(worldPosition: WorldPoint, radius: number, options: { to?: number; edge?: number; rock?: number } = {}): GroundEditHandle {
        return this._edit("flatten", [worldPosition], radius, { flatten: options });
    }

    /**
     * Levels the ground inside a polygon of world positions (their x and z; at least three, not
     * closed) toward `options.to` (a world y; default the first point's y), with a soft edge
     * `options.edge` world units wide outside it (default 0: a hard edge): a building's plot, a
     * field; `options.rock` as for `flatten`. See `dig`.
     */
    public flattenArea(polygon: readonly WorldPoint[], options: { to?: number; edge?: number; rock?: number } = {}): GroundEditHandle {
        if (!Array.isArray(polygon) || polygon.length < 3) {
            throw new RangeError(`flattenArea: polygon has ${Array.isArray(polygon) ? polygon.length : "no"} points: it needs at least three world positions.`);
        }
        return this._edit("flattenArea", polygon, options.edge ?? 0, { flattenArea: { to: options.to, rock: options.rock } });
    }

    /**
     * An explosion: a bowl `depth` world units deep at `worldPosition` with `radius` world units;
     * where its material goes is `options.ejecta`: `"rim"` (default) a rim out to 1.6 radii made of
     * exactly what the bowl removed (mass conserved to the unit), `"gone"`, or `"sediment"` the
     * shallow water's loose sediment in the bowl. See `dig`.
     */
    public crater(worldPosition: WorldPoint, radius: number, depth: number, options: { ejecta?: "rim" | "gone" | "sediment" } = {}): GroundEditHandle {
        return this._edit("crater", [worldPosition], radius, { crater: depth, ejecta: options.ejecta ?? "rim" });
    }

    /**
     * A canal (`{ dig }`), a levee (`{ pile }`) or a road (`{ flatten }`) along a polyline of world
     * positions (at least two), `width` world units wide. See `dig`.
     */
    public along(path: readonly WorldPoint[], width: number, edit: GroundEditInput): GroundEditHandle {
        if (!Array.isArray(path) || path.length < 2) {
            throw new RangeError(`along: path has ${Array.isArray(path) ? path.length : "no"} points: it needs at least two world positions.`);
        }
        return this._edit("along", path, width / 2, edit);
    }

    private _edit(operation: string, points: readonly WorldPoint[], radius: number, input: Parameters<typeof stampEditAt>[5]): GroundEditHandle {
        const runner = this._live(operation);
        const edit = stampEditAt(runner.field, runner.schedule, operation, points, radius, input);
        // A forwarded edit comes back from the host as an entry; it shows when that applies.
        if (!runner.schedule.inputs.forward) runner.previewEdit(edit);
        return { id: edit.id, kind: edit.kind, cycle: edit.cycle, batch: edit.batch };
    }

    /**
     * A spring, or a storm over one valley: adds `rate` cubic world units of water every water step
     * (`water.enabled`), spread over the vertices within `radius` world units of `worldPosition`
     * (its x and z, in the ground's local space), from the next cycle boundary until the handle's
     * `remove()`. Recorded in the state (fingerprint, snapshots; `reset()` clears it). At most 256.
     */
    public addWaterSource(worldPosition: { x: number; y: number; z: number }, radius: number, rate: number): WaterSourceHandle {
        const { field, schedule } = this._live("addWaterSource");
        if (schedule.inputs.forward) return forwardWaterSource(field, schedule, worldPosition, radius, rate);
        const id = addWaterSourceAt(field, schedule, worldPosition, radius, rate);
        return { id, remove: () => removeWaterSource(schedule, id) };
    }

    /** Heights in the ground's local units (its positions' y), in its vertex order, after everything issued so far. */
    public readHeights(): Promise<Float32Array> {
        return this._withRunner("readHeights", (runner) => reads.readHeights(runner));
    }

    /** The exact state's heights in fixed point (1/65536 of the ground's cell size), in the ground's vertex order. */
    public exportFixedHeights(): Promise<Int32Array> {
        return this._withRunner("exportFixedHeights", (runner) => reads.exportFixedHeights(runner));
    }

    /**
     * The eroded heights as a 16-bit grayscale PNG (top row = far, +z, edge) and the height range
     * its samples map (`range`, default the heights' own minimum and maximum).
     */
    public exportPng16(range?: HeightRange): Promise<{ png: Uint8Array; range: HeightRange }> {
        return this._withRunner("exportPng16", async (runner) =>
            encodeHeightsPng16(await reads.readHeights(runner), runner.field.width, runner.field.depth, range)
        );
    }

    /**
     * The erosion maps accumulated since attach or `resetMaps()`, as arrays (both backends): water
     * (droplet visits), wear and deposition (1/65536 of the cell size), the drainage direction of
     * every vertex from the current state as the river operator routes it (slot 0..7: +x, -x, +y, -y,
     * then diagonals; 255 where nothing is lower), the drainage area (cells, the river operator's
     * state), the shallow water's depth (local units) and velocity (two per vertex, along local x
     * and z, local units a water step, at most a cell a step each: the velocity its last water step
     * left, as the `"shallowWater"` texture holds it; docs/simulation.md, "Shallow water"), and the materials (`materials.enabled`): the soil's thickness
     * (local units), the strata's bed of the rock at the surface (`exposedLayer`, -1 without strata
     * or outside the layered beds) and that rock's hardness (`rockHardness`, times the soil's; 1
     * while the materials have never run).
     */
    public readMaps(): Promise<ErosionMaps & { direction: Uint8Array; drainageArea: Int32Array } & WaterMaps & MaterialMaps> {
        return this._withRunner("readMaps", (runner) => runner.maps.readMaps());
    }

    /** Starts the erosion maps again from zero. */
    public resetMaps(): Promise<void> {
        return this._withRunner("resetMaps", (runner) => runner.maps.resetMaps());
    }

    /**
     * The maps as a texture, for materials (`TerrainErosionMaterialPlugin`): RGBA32F, one texel per
     * field vertex (row 0 is the far, +z, edge), r = droplet visits, g = wear and b = deposition in
     * local units, a = drainage direction slot (-1 where nothing is lower). Kept current after every
     * frame from the first call on: written on the GPU by the WebGPU backend (no readback), uploaded
     * from the rows each frame changed by the CPU backend (which computes them in its worker). Maps
     * added later (drainage area) come from `getMapTexture(name)`. RGBA32F is not filterable
     * everywhere: sample it with texel loads (the material plugin filters bilinearly in its shader).
     */
    public getMapsTexture(): Promise<RawTexture> {
        return this._withRunner("getMapsTexture", (runner) => runner.maps.getMapsTexture());
    }

    /**
     * A map added after `getMapsTexture()`'s layout was fixed, as a texture kept current like it,
     * one texel per field vertex (row 0 at the far, +z, edge): `"drainageArea"`, R32F, the river
     * operator's drainage area in cells; `"shallowWater"`, RGBA32F, the shallow water: r depth, g and
     * b velocity along local x and z (units a water step, the last water step's: as `readMaps()`), a the water surface (ground + water), all
     * in local units (dry ground before water runs; `TerrainWaterSurface` draws it); `"materials"`,
     * RGBA32F, the rock and soil (`materials` options): r the soil's thickness in local units, g the
     * strata's bed at the surface (-1: none), b the rock's hardness (times the soil's), a 1 once the
     * materials have run (before: (0, -1, 1, 0) everywhere). The material plugin colours by it.
     */
    public getMapTexture(name: MapTextureName): Promise<RawTexture> {
        if (name === "drainageArea") {
            return this._withRunner("getMapTexture", (runner) => runner.maps.getAreaTexture());
        }
        if (name === "shallowWater") {
            return this._withRunner("getMapTexture", (runner) => runner.maps.getWaterTexture());
        }
        if (name === "materials") {
            return this._withRunner("getMapTexture", (runner) => runner.maps.getMaterialsTexture());
        }
        return Promise.reject(new RangeError(`getMapTexture: name is ${JSON.stringify(name)}: it must be "drainageArea", "shallowWater" or "materials".`));
    }

    /**
     * Sets (or, with null, clears) an operator's mask: a value in [0, 1] per vertex, in the ground's
     * vertex order, or a texture whose red channel is sampled at the vertices (nearest texel; row 0
     * at the far, +z, edge). 0 holds the ground out, 1 erodes at full strength; for `"uplift"` it is
     * the uplift map, for `"rain"` the rain map (times `water.rain`), for `"hardness"` the hardness
     * map (with `materials.enabled`: the rock's hardness times 1 + value x
     * (`materials.hardnessMapScale` - 1)), for `"soil"` the soil map (the share of
     * `materials.initialSoil` each vertex starts with when the materials are first made: set it
     * before they run, or before `reset()`). Values are quantised to 1/65536. Like options, it takes effect at the next
     * cycle boundary, and it is part of the state: fingerprints, snapshots and reset() carry it.
     */
    public setMask(operator: MaskName, mask: ArrayLike<number> | BaseTexture | null): Promise<void> {
        try {
            assertMaskName(operator);
        } catch (error) {
            return Promise.reject(error);
        }
        return this._live("setMask").setMask(operator, mask);
    }

    /** The contract fingerprint of the whole state at the last completed batch (docs/simulation.md). */
    public fingerprint(): Promise<string> {
        return this._withRunner("fingerprint", (runner) => reads.fingerprint(runner));
    }

    /** Material counters (outflow, droplet steps...) after everything issued so far. */
    public readCounters(): Promise<ErosionCounters> {
        return this._withRunner("readCounters", (runner) => reads.readCounters(runner));
    }

    /** Restores the state at attach exactly: heights, position (cycle 0), and the mesh's original vertex data. */
    public reset(): Promise<void> {
        return this._withRunner("reset", (runner) => runner.reset());
    }

    /** A copy of the whole state and the options in force, at the last completed batch. */
    public snapshot(): Promise<ErosionSnapshot> {
        return this._withRunner("snapshot", (runner) => reads.snapshot(runner));
    }

    /** Restores a snapshot of this ground: state, position and simulation options (the runtime settings in force stay: `RUNTIME_SETTINGS`). */
    public restore(snapshot: ErosionSnapshot): Promise<void> {
        return this._withRunner("restore", (runner) => runner.restore(snapshot));
    }

    /**
     * Brings the mesh's CPU vertex data, height quads, picking data and bounds fully up to date, so
     * serializers, exporters and physics see the eroded terrain.
     */
    public flush(): Promise<void> {
        return this._withRunner("flush", (runner) => reads.flush(runner));
    }

    /**
     * Checksums of the field's square regions of `size` vertices (default 32) after everything issued
     * so far, computed where the state lives (on WebGPU a compute pass; 8 bytes a region come back):
     * compare two peers' with `differingRegions` to find where their terrains part.
     */
    public regionChecksums(size = DEFAULT_CHECKSUM_REGION): Promise<RegionChecksums> {
        try {
            validateRegionSize(size);
        } catch (error) {
            return Promise.reject(error);
        }
        return this._withRunner("regionChecksums", (runner) =>
            runner.queueLive("regionChecksums", async ({ backend, field }) => ({
                size,
                ...regionGrid(field.width, field.depth, size),
                lanes: await backend.regionChecksums(size),
            }))
        );
    }

    /** Every entry of the input log since attach, in order (see `onInputObservable`); empty when detached. */
    public get inputLog(): readonly InputEntry[] {
        return this._runner?.history.entries ?? [];
    }

    /**
     * The entries a replay from `snapshot` (taken of this erosion with `snapshot()`) needs: those
     * given after it, and those given before it that still waited then (`replayInputLog`, `replay`).
     */
    public inputsSince(snapshot: ErosionSnapshot): InputEntry[] {
        return this._live("inputsSince").history.sinceSnapshot(snapshot.logSeq, snapshot.state);
    }

    /** Where the schedule stands: completed cycles, and completed batches of the cycle in progress (as dispatched). */
    public get stamp(): InputStamp {
        return this._runner?.schedule.inputs.position ?? { cycle: 0, batch: 0 };
    }

    /** The input `undo()` would take back (the last in force since attach, the last reset or restore), or null. */
    public get undoable(): InputEntry | null {
        return this._runner?.history.undoable ?? null;
    }

    /** The input `redo()` would give back, or null. */
    public get redoable(): InputEntry | null {
        return this._runner?.history.redoable ?? null;
    }

    /**
     * Takes back the last `count` inputs still in force (default 1: ground edits, `erodeAt`, options,
     * mask and water-source changes, the Inspector's included): the terrain becomes exactly the run in
     * which they never happened, by putting back the newest checkpoint before them and replaying the
     * rest of the log (checkpoints within `undoMemoryMB`; from the start when none is old enough).
     * Each is logged as an entry, so a replay or a peer undoes it too. Resolves with the entries
     * taken back, last first (empty when there was none: then at once, not after the frames in
     * flight). A lockstep player (`forwardInputs` set) sends `count` undo requests instead and
     * resolves with none: the host takes back the player's own last inputs, and its entries bring
     * the undo here through `give`.
     */
    public undo(count = 1): Promise<InputEntry[]> {
        return this._withRunner("undo", (runner) => emptyStepAtOnce(runner, "undo", count) ?? runner.rewind.undo(count));
    }

    /** Gives back the last `count` inputs `undo()` took (unless an input came since); resolves with them. */
    public redo(count = 1): Promise<InputEntry[]> {
        return this._withRunner("redo", (runner) => emptyStepAtOnce(runner, "redo", count) ?? runner.rewind.redo(count));
    }

    /** What undo's checkpoints hold now: bytes (at most `undoMemoryMB`), checkpoints, and the bound in bytes. */
    public get undoMemory(): UndoMemory {
        return this._live("undoMemory").rewind.memory;
    }

    /**
     * Gives an input-log entry from another run (a lockstep peer, a server, a saved log) where it
     * says: at its stamp, held until the run reaches it if it lies ahead. A stamp that has passed is
     * an error naming where the run stands.
     */
    public give(entry: InputEntry): Promise<void> {
        return this._withRunner("give", (runner) => runner.queueLive("give", (live) => runner.rewind.give(live, entry)));
    }

    /**
     * Gives a host's step of entries, in order, as `give` gives each, with one rewind for the undos
     * and redos that come together at one stamp (a player's stroke taken back) rather than one each.
     * Every entry is checked before the first is given.
     */
    public giveAll(entries: readonly InputEntry[]): Promise<void> {
        return this._withRunner("giveAll", (runner) => runner.queueLive("giveAll", (live) => runner.rewind.giveAll(live, entries)));
    }

    /**
     * Starts again from `snapshot` and gives `entries` (a log since it: `inputsSince`, or a saved
     * one) each where it was given, on this behavior's backend, ending at `until` (default where the
     * last was given). The log starts again with them; with `history` (a lockstep join's: the run's
     * start and its log up to the snapshot) it holds those first, so an undo of an input given
     * before the snapshot works here as on the host.
     */
    public replay(snapshot: ErosionSnapshot, entries: readonly InputEntry[], until?: InputStamp, history?: InputHistory): Promise<void> {
        return this._withRunner("replay", (runner) => runner.rewind.replay(snapshot, entries, until, history));
    }

    /**
     * The stamp the run never passes (null: none, the default): frames stop exactly there (the edits
     * stamped there applied, no batch at or after it) and rendering goes on, until the horizon is
     * moved on. What a lockstep game sets to the last turn whose inputs every player has sent.
     */
    public get horizon(): InputStamp | null {
        return this._runner?.schedule.horizon ?? null;
    }

    public set horizon(stamp: InputStamp | null) {
        if (
            stamp !== null &&
            (typeof stamp !== "object" || !Number.isInteger(stamp.cycle) || !Number.isInteger(stamp.batch) || stamp.cycle < 0 || stamp.batch < 0)
        ) {
            throw new RangeError(`horizon is ${JSON.stringify(stamp)}: it must be null or { cycle, batch }, whole numbers at least 0.`);
        }
        this._live("horizon").schedule.horizon = stamp ? { cycle: stamp.cycle, batch: stamp.batch } : null;
    }

    /**
     * A lockstep player's inputs go here instead of being applied (null, the default: applied): each
     * as a request (`PlayerInput`: an edit as its point, radius and depth in grid units, never
     * heights; an undo without a target; a spring under a tag of its own), for the game to send to
     * its host (`serializePlayerInput`; `LockstepHost.submit` shapes it), whose entries come back
     * through `give`. A reset or a restore is the host's: a player's throws.
     */
    public get forwardInputs(): ((input: PlayerInput) => void) | null {
        return this._runner?.schedule.inputs.forward ?? null;
    }

    public set forwardInputs(forward: ((input: PlayerInput) => void) | null) {
        if (forward !== null && typeof forward !== "function") throw new RangeError(`forwardInputs is ${typeof forward}: it must be a function or null.`);
        this._live("forwardInputs").schedule.inputs.forward = forward;
    }

    /**
     * Compares this run's region checksums with a host's (`LockstepHost.checksums`) at the host's
     * stamp, where this run must stand (set the horizon there): resolves with the regions that
     * differ, reported through `onRegionsPartedObservable` with a message naming the first.
     */
    public checkRegions(remote: { readonly stamp: InputStamp; readonly checksums: RegionChecksums }): Promise<number[]> {
        return this._withRunner("checkRegions", (runner) => checkRegions(runner, remote, (event) => this.onRegionsPartedObservable.notifyObservers(event)));
    }

    /**
     * Writes a host's state of some regions (`LockstepHost.regions`, at its stamp, where this run
     * must stand) into this run: equal to the host's there again, to the unit.
     */
    public repairRegions(remote: { readonly stamp: InputStamp; readonly patch: RegionPatch }): Promise<void> {
        return this._withRunner("repairRegions", (runner) => repairRegions(runner, remote));
    }

    /** Runs now, whatever the frame budget, until the schedule stands at `stamp` (the edits stamped there applied). */
    public runUntil(stamp: InputStamp): Promise<void> {
        return this._withRunner("runUntil", (runner) =>
            runner.queueLive("runUntil", async (live) => {
                if (compareStamps(stamp, live.schedule.inputs.position) < 0) {
                    throw new RangeError(
                        `runUntil: the stamp (${formatStamp(stamp)}) has passed: the run stands at ${formatStamp(live.schedule.inputs.position)}.`
                    );
                }
                if (live.schedule.horizon && compareStamps(stamp, live.schedule.horizon) > 0) {
                    throw new RangeError(
                        `runUntil: the stamp (${formatStamp(stamp)}) lies past the horizon (${formatStamp(live.schedule.horizon)}); move the horizon on first.`
                    );
                }
                await runner.runTo(live, stamp);
            })
        );
    }
}
