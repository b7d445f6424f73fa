/**
 * `ErosionGroundSave`: one ground's part of a world's state at a cycle boundary, which a game can
 * store (`toArrayBuffer`) and later restore exactly into a world at the same cycle
 * (`TerrainErosionWorld.restoreGrounds`). It holds the ground's window of every state grid (heights,
 * suspended sediment, drainage area, fill levels), of the masks, of the water, of the materials and of the erosion
 * maps, and the world's own part at that boundary (cycle, counters, local erosion events, water
 * sources, options), so that
 * restoring every ground's save gives the saved world's fingerprint.
 *
 * Layout (little-endian, version 1): ASCII `TEGS`; u32 version, row, column; u32 byte length of the
 * window's `ErosionSnapshot` and its bytes (padded to a multiple of 4); then the water, wear and
 * deposition maps, u32 per vertex of the window.
 */
import { MASK_NAMES, STATE_GRIDS, type ErosionMasks, type ErosionStateData } from "../core/erosionState.js";
import { createWaterGrids, WATER_CARRIED_GRIDS, type WaterGrids } from "../core/waterModel.js";
import { createMaterialGrids, MATERIAL_GRIDS } from "../core/materials.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import { FIXED_ONE } from "../core/fixedPoint.js";
import type { SimulationOptions } from "../core/options.js";
import type { GridRect } from "../core/patches.js";
import { ErosionSnapshot } from "../core/snapshot.js";

const MAGIC = "TEGS";
const VERSION = 1;
const MAP_NAMES = ["water", "wear", "deposition"] as const;

/** One ground's window of a world's state at a cycle boundary, with the world's own part. */
export class ErosionGroundSave {
    /**
     * @param row the ground's row in the world's grid (0 at the far, +z, edge)
     * @param column the ground's column (0 at the -x edge)
     * @param snapshot the window's state (its grids, masks, and the world's cycle, counters, events) and the options in force
     * @param maps the window's erosion maps
     */
    constructor(
        public readonly row: number,
        public readonly column: number,
        public readonly snapshot: ErosionSnapshot,
        public readonly maps: ErosionMaps
    ) {}

    /** The cycle boundary the save was taken at. */
    public get cycle(): number {
        return this.snapshot.state.cycle;
    }

    /** Serializes to the binary layout above. */
    public toArrayBuffer(): ArrayBuffer {
        const snapshot = new Uint8Array(this.snapshot.toArrayBuffer());
        const padded = Math.ceil(snapshot.length / 4) * 4;
        const cells = this.snapshot.state.width * this.snapshot.state.depth;
        const buffer = new ArrayBuffer(4 + 4 * 4 + padded + MAP_NAMES.length * cells * 4);
        const view = new DataView(buffer);
        for (let i = 0; i < 4; i++) view.setUint8(i, MAGIC.charCodeAt(i));
        [VERSION, this.row, this.column, snapshot.length].forEach((value, i) => view.setUint32(4 + i * 4, value, true));
        new Uint8Array(buffer, 20, snapshot.length).set(snapshot);
        MAP_NAMES.forEach((name, i) => new Uint32Array(buffer, 20 + padded + i * cells * 4, cells).set(this.maps[name]));
        return buffer;
    }

    /** Reads `toArrayBuffer`'s layout; throws a RangeError saying what is wrong with anything else. */
    public static fromArrayBuffer(buffer: ArrayBuffer): ErosionGroundSave {
        if (buffer.byteLength < 20 || String.fromCharCode(...new Uint8Array(buffer, 0, 4)) !== MAGIC) {
            throw new RangeError(`ErosionGroundSave.fromArrayBuffer: not a ground save (no "${MAGIC}" header).`);
        }
        const view = new DataView(buffer);
        const [version, row, column, length] = [0, 1, 2, 3].map((i) => view.getUint32(4 + i * 4, true));
        if (version !== VERSION) {
            throw new RangeError(`ErosionGroundSave.fromArrayBuffer: layout version ${version}; this build reads version ${VERSION}.`);
        }
        const padded = Math.ceil(length / 4) * 4;
        if (20 + padded > buffer.byteLength) {
            throw new RangeError(`ErosionGroundSave.fromArrayBuffer: truncated (${buffer.byteLength} bytes).`);
        }
        const snapshot = ErosionSnapshot.fromArrayBuffer(buffer.slice(20, 20 + length));
        const cells = snapshot.state.width * snapshot.state.depth;
        if (20 + padded + MAP_NAMES.length * cells * 4 !== buffer.byteLength) {
            throw new RangeError(
                `ErosionGroundSave.fromArrayBuffer: ${buffer.byteLength} bytes, not the ` +
                    `${20 + padded + MAP_NAMES.length * cells * 4} a ${snapshot.state.width} x ${snapshot.state.depth} save has.`
            );
        }
        const [water, wear, deposition] = MAP_NAMES.map(
            (_, i) => new Uint32Array(buffer.slice(20 + padded + i * cells * 4, 20 + padded + (i + 1) * cells * 4))
        );
        return new ErosionGroundSave(row, column, snapshot, { water, wear, deposition });
    }
}

/** The rectangle `rect` of a row-major grid `fieldWidth` wide, as its own row-major grid. */
export function cropGrid<T extends Int32Array | Uint32Array>(grid: T, fieldWidth: number, rect: GridRect): T {
    const width = rect.x1 - rect.x0;
    const out = new (grid.constructor as new (length: number) => T)(width * (rect.y1 - rect.y0));
    for (let y = rect.y0; y < rect.y1; y++) {
        out.set(grid.subarray(y * fieldWidth + rect.x0, y * fieldWidth + rect.x1), (y - rect.y0) * width);
    }
    return out;
}

/** Writes `part` (a row-major grid of `rect`'s size) into `rect` of `grid`. */
export function pasteGrid(grid: Int32Array | Uint32Array, fieldWidth: number, part: Int32Array | Uint32Array, rect: GridRect): void {
    const width = rect.x1 - rect.x0;
    for (let y = rect.y0; y < rect.y1; y++) {
        grid.set(part.subarray((y - rect.y0) * width, (y - rect.y0 + 1) * width), y * fieldWidth + rect.x0);
    }
}

/** A save of `rect` of a cycle-boundary `state` and its `maps`. */
export function saveWindow(
    row: number, column: number, state: ErosionStateData, maps: ErosionMaps, rect: GridRect, options: Readonly<SimulationOptions>, cellSize: number
): ErosionGroundSave {
    const crop = <T extends Int32Array | Uint32Array>(grid: T) => cropGrid(grid, state.width, rect);
    const window = { ...state, width: rect.x1 - rect.x0, depth: rect.y1 - rect.y0 } as ErosionStateData;
    for (const name of STATE_GRIDS) {
        window[name] = crop(state[name]);
    }
    window.masks = Object.fromEntries(MASK_NAMES.map((name) => [name, state.masks[name] ? crop(state.masks[name]!) : null])) as ErosionMasks;
    window.water = state.water ? (Object.fromEntries(WATER_CARRIED_GRIDS.map((name) => [name, crop(state.water![name])])) as WaterGrids) : null;
    window.materials = state.materials ? { soil: crop(state.materials.soil), hardness: crop(state.materials.hardness) } : null;
    return new ErosionGroundSave(row, column, new ErosionSnapshot(window, options, cellSize), {
        water: crop(maps.water),
        wear: crop(maps.wear),
        deposition: crop(maps.deposition),
    });
}

/**
 * Writes a save's window into a whole-field `state` and `maps` (in place). A mask the save has and
 * the state lacks (or the other way round) becomes a full mask, ones (no effect) elsewhere.
 */
export function restoreWindow(save: ErosionGroundSave, state: ErosionStateData, maps: ErosionMaps, rect: GridRect): void {
    const window = save.snapshot.state;
    for (const name of STATE_GRIDS) {
        pasteGrid(state[name], state.width, window[name], rect);
    }
    for (const name of MASK_NAMES) {
        const part = window.masks[name];
        if (!part && !state.masks[name]) {
            continue;
        }
        const mask = state.masks[name] ?? new Int32Array(state.width * state.depth).fill(FIXED_ONE);
        pasteGrid(mask, state.width, part ?? new Int32Array(window.width * window.depth).fill(FIXED_ONE), rect);
        state.masks = { ...state.masks, [name]: mask };
    }
    // The window's water (dry where the save has none); the world keeps water once any ground has it.
    if (window.water || state.water) {
        state.water ??= createWaterGrids(state.width * state.depth);
        for (const name of WATER_CARRIED_GRIDS) {
            pasteGrid(state.water[name], state.width, window.water?.[name] ?? new Int32Array(window.width * window.depth), rect);
        }
    }
    // The window's materials (no soil and hardness 1 where the save has none); the world keeps them once any ground has them.
    if (window.materials || state.materials) {
        state.materials ??= createMaterialGrids(state.width * state.depth, 0);
        const none = createMaterialGrids(window.width * window.depth, 0);
        for (const name of MATERIAL_GRIDS) pasteGrid(state.materials[name], state.width, (window.materials ?? none)[name], rect);
    }
    for (const name of MAP_NAMES) {
        pasteGrid(maps[name], state.width, save.maps[name], rect);
    }
}
