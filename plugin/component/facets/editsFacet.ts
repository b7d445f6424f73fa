/**
 * `erosion.edits`: the inputs a game gives the terrain during play: ground edits (`dig`, `pile`,
 * `flatten`, `flattenArea`, `crater`, `along`), local erosion (`erodeAt`), water sources and masks.
 * Each is stamped in the input log (`erosion.history`) and, for a lockstep player, forwarded to the
 * host instead (`erosion.lockstep.forwardInputs`).
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { MaskName } from "../../core/erosionState.js";
import type { LocalErosionInput } from "../../core/localErosion.js";
import { stampEditAt, type GroundEditHandle, type GroundEditInput, type WorldPoint } from "../groundEditsAt.js";
import { assertMaskName } from "../masks.js";
import { addWaterSourceAt, forwardWaterSource, removeWaterSource, type WaterSourceHandle } from "../waterSources.js";
import type { FacetLink } from "./facetLink.js";

/** Ground edits, local erosion, water sources and masks (`erosion.edits`). */
export class EditsFacet {
    /** @param _link the controller's runner and guards */
    constructor(private readonly _link: FacetLink) {}

    /**
     * Local erosion during gameplay: rains droplets over a disc of `radius` world units around
     * `worldPosition` (its x and z, in the ground's local space, so a moved, rotated or scaled ground
     * works), from the next cycle boundary, through the same patch system and frame budget. It
     * changes nothing farther from the disc than a walk can reach (maxSteps + brushRadius + 1
     * cells), is deterministic given its inputs and that cycle, and is recorded in the state, so
     * `history.reset()` (which clears it), `history.snapshot()` and `fingerprint()` stay consistent.
     * @param options droplets (default two per cell of the disc) and droplet options for this event
     */
    public erodeAt(worldPosition: { x: number; y: number; z: number }, radius: number, options: LocalErosionInput = {}): void {
        this._link.live("erodeAt").erodeAt(worldPosition, radius, options);
    }

    /**
     * Digs a pit: lowers the ground by up to `depth` world units at `worldPosition`, falling smoothly
     * to nothing `radius` world units away. Like every ground edit it is stamped at the run's
     * current position and applies before the next batch, paused or not (seen on the mesh within a
     * couple of frames); it is integer, the same on both backends, recorded in the state until it
     * applies (snapshots, `fingerprint()`), and counted (`maps.readCounters().editRemoved`). The
     * material is gone, or with `options.keep: "sediment"` becomes the shallow water's loose sediment
     * where it was dug (the water carries it off, or lays it down again where it cannot); `crater`
     * keeps it as a rim.
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
        const runner = this._link.live(operation);
        const edit = stampEditAt(runner.field, runner.schedule, operation, points, radius, input);
        // A forwarded edit comes back from the host as an entry; it shows when that applies.
        if (!runner.schedule.inputs.forward) runner.previewEdit(edit);
        return { id: edit.id, kind: edit.kind, cycle: edit.cycle, batch: edit.batch };
    }

    /**
     * A spring, or a storm over one valley: adds `rate` cubic world units of water every water step
     * (`water.enabled`), spread over the vertices within `radius` world units of `worldPosition`
     * (its x and z, in the ground's local space), from the next cycle boundary until the handle's
     * `remove()`. Recorded in the state (fingerprint, snapshots; `history.reset()` clears it). At most 256.
     */
    public addWaterSource(worldPosition: { x: number; y: number; z: number }, radius: number, rate: number): WaterSourceHandle {
        const { field, schedule } = this._link.live("addWaterSource");
        if (schedule.inputs.forward) return forwardWaterSource(field, schedule, worldPosition, radius, rate);
        const id = addWaterSourceAt(field, schedule, worldPosition, radius, rate);
        return { id, remove: () => removeWaterSource(schedule, id) };
    }

    /**
     * Sets (or, with null, clears) an operator's mask: a value in [0, 1] per vertex, in the ground's
     * vertex order, or a texture whose red channel is sampled at the vertices (nearest texel; row 0
     * at the far, +z, edge). 0 holds the ground out, 1 erodes at full strength; for `"uplift"` it is
     * the uplift map, for `"rain"` the rain map (times `water.rain`), for `"hardness"` the hardness
     * map (with `materials.enabled`: the rock's hardness times 1 + value x
     * (`materials.hardnessMapScale` - 1)), for `"soil"` the soil map (the share of
     * `materials.initialSoil` each vertex starts with when the materials are first made: set it
     * before they run, or before `history.reset()`). Values are quantised to 1/65536. Like options,
     * it takes effect at the next cycle boundary, and it is part of the state: fingerprints,
     * snapshots and reset() carry it.
     */
    public setMask(operator: MaskName, mask: ArrayLike<number> | BaseTexture | null): Promise<void> {
        try {
            assertMaskName(operator);
        } catch (error) {
            return Promise.reject(error);
        }
        return this._link.live("setMask").setMask(operator, mask);
    }
}
