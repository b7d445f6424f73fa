/**
 * Snapshots: the whole simulation state plus the simulation options in force (not the runtime
 * settings, `RUNTIME_SETTINGS`), serializable to an
 * `ArrayBuffer` (for saving games, sending to peers, or bug reports).
 *
 * Layout (little-endian, version 10): ASCII `TESN`; u32 version; u32 width, depth, cycle, batch;
 * f64 counters (`COUNTER_NAMES` order); u32 byte length of a JSON header ({ options: the simulation options (older snapshots carry
 * the runtime settings too; loading leaves them out), events: the
 * local erosion events in force and pending, sources: the water sources in force and pending,
 * edits: the ground edits stamped and not yet applied,
 * cellSize: the grid's cell size, in the unit of the heights it was taken from, logSeq: the input
 * log's last entry then, absent in snapshots written before the log; only when a change waits for
 * the next cycle boundary: pendingOptions, the simulation options, and pendingMasks, each mask as
 * base64 little-endian i32 or null }), the UTF-8 JSON,
 * zero padding to a multiple of 4; the i32 grids of `STATE_GRIDS` in order (heights, suspended,
 * drainage area, fill levels); then for each mask (hydraulic, thermal, rivers, uplift, rain): u32 1
 * and i32 values, or u32 0; then u32 1 and the i32 grids of `WATER_GRIDS`, or u32 0 while water has
 * never run (not its velocity, a view worked out again on load: `WATER_VIEW_GRIDS`); then u32 1 and
 * the i32 grids of `MATERIAL_GRIDS` (soil, hardness), or u32 0 while the
 * materials have never run (version 8; a version 7 snapshot has no such word and no materials);
 * then u32 1 and the hardness map's i32 values, or u32 0 without one (version 9; older snapshots
 * have no such word and no hardness map); then the same for the soil map (version 10). Older
 * versions (2: no fill levels, heights in 1/65536 m; 3: flow counts and three
 * masks; 4: its batch position counts batches in version 4's patch-after-patch order; 5: no water,
 * four masks, seven counters) are refused with an error saying so. Version 6 (no ground edits, 11
 * counters) loads: its edit counters start at zero.
 */
import { COUNTER_COUNT } from "./counters.js";
import { base64ToBytes, bytesToBase64 } from "./base64.js";
import { cloneState, MASK_NAMES, MASKED_OPERATORS, MATERIAL_MASKS, noMasks, STATE_GRIDS, type ErosionMasks, type ErosionStateData } from "./erosionState.js";
import { fingerprintOf } from "./fingerprint.js";
import { WATER_GRIDS, WATER_VIEW_GRIDS, type WaterGrids } from "./waterModel.js";
import { refreshWaterVelocity } from "./waterVelocity.js";
import { MATERIAL_GRIDS, type MaterialGrids } from "./materials.js";
import { resolveOptions, simulationOptions, type SimulationOptions } from "./options.js";
import { checkGroundEdit, checkLocalEvents, checkMaskValues, checkWaterSources, objectOf, type InputField, type Refuse } from "./inputLog/inputChecks.js";

const MAGIC = "TESN";
/**
 * The snapshot layout's version: it changes with the layout (contract version 8 kept version 7's;
 * version 9 added the materials, 10 the hardness map, 11 the soil map).
 */
export const SNAPSHOT_VERSION = 10;

/** Counters a snapshot of each version that still loads holds. */
const COUNTERS_OF_VERSION: Readonly<Record<number, number>> = { 6: 11, 7: COUNTER_COUNT, 8: COUNTER_COUNT, 9: COUNTER_COUNT, 10: COUNTER_COUNT };
const GRIDS = STATE_GRIDS.length;

/** A copy of the whole erosion state at one batch, with the simulation options in force. */
export class ErosionSnapshot {
    /** The state (owned by the snapshot; copy it before changing it). */
    public readonly state: ErosionStateData;
    /**
     * The simulation options in force when the snapshot was taken (the runtime settings, such as
     * the backend or the frame budget, are not part of it: `RUNTIME_SETTINGS`).
     */
    public readonly options: SimulationOptions;
    /** The grid's cell size, in the unit of the heights the state was made from (1 when unknown). */
    public readonly cellSize: number;
    /**
     * The seq of the last input-log entry given when it was taken (0: none, or unknown): the log
     * since the snapshot is what came after it (`TerrainErosion.inputsSince`).
     */
    public readonly logSeq: number;

    /** @param options the options in force (whole options or simulation options; the runtime settings are left out) */
    constructor(state: ErosionStateData, options: Readonly<SimulationOptions>, cellSize = 1, logSeq = 0) {
        this.state = cloneState(state);
        this.options = simulationOptions(resolveOptions(options));
        this.cellSize = cellSize;
        this.logSeq = logSeq;
    }

    /**
     * A snapshot that takes `state` over rather than copying it (the caller must not change it
     * afterwards): for a state that is already a copy, such as a large bake's, whose grids would
     * otherwise be held twice.
     */
    public static adopt(state: ErosionStateData, options: Readonly<SimulationOptions>, cellSize = 1): ErosionSnapshot {
        const snapshot = Object.create(ErosionSnapshot.prototype) as { state: ErosionStateData; options: SimulationOptions; cellSize: number; logSeq: number };
        snapshot.state = state;
        snapshot.options = simulationOptions(resolveOptions(options));
        snapshot.cellSize = cellSize;
        snapshot.logSeq = 0;
        return snapshot as unknown as ErosionSnapshot;
    }

    /** The contract fingerprint of the snapshot's state. */
    public get fingerprint(): string {
        return fingerprintOf(this.state);
    }

    /** Serializes to the binary layout (version `SNAPSHOT_VERSION`). */
    public toArrayBuffer(): ArrayBuffer {
        const chunks = [...this.chunks()];
        const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
        let offset = 0;
        for (const chunk of chunks) {
            bytes.set(chunk, offset);
            offset += chunk.byteLength;
        }
        return bytes.buffer;
    }

    /**
     * The bytes of `toArrayBuffer`, a piece at a time (the header, then one grid after another), so
     * a large snapshot can be written to a file without a second copy of the state in memory. A grid
     * is its own memory where the host is little-endian (every platform Node and browsers run on).
     */
    public *chunks(): Generator<Uint8Array> {
        const json = new TextEncoder().encode(
            JSON.stringify({
                options: this.options,
                events: this.state.events ?? { inForce: [], pending: [] },
                sources: this.state.sources ?? { inForce: [], pending: null },
                edits: this.state.edits ?? [],
                cellSize: this.cellSize,
                logSeq: this.logSeq,
                ...pendingHeader(this.state),
            })
        );
        const paddedJson = Math.ceil(json.length / 4) * 4;
        const header = new ArrayBuffer(4 + 4 * 5 + 8 * COUNTER_COUNT + 4 + paddedJson);
        const view = new DataView(header);
        let offset = 0;
        for (let i = 0; i < 4; i++) view.setUint8(offset++, MAGIC.charCodeAt(i));
        for (const value of [SNAPSHOT_VERSION, this.state.width, this.state.depth, this.state.cycle, this.state.batch]) {
            view.setUint32(offset, value, true);
            offset += 4;
        }
        for (let i = 0; i < COUNTER_COUNT; i++) {
            view.setFloat64(offset, this.state.counters[i], true);
            offset += 8;
        }
        view.setUint32(offset, json.length, true);
        offset += 4;
        new Uint8Array(header, offset, json.length).set(json);
        yield new Uint8Array(header);
        for (const grid of STATE_GRIDS) yield littleEndianBytes(this.state[grid]);
        for (const operator of MASKED_OPERATORS) {
            const mask = this.state.masks[operator];
            yield littleEndianBytes(Int32Array.of(mask ? 1 : 0));
            if (mask) yield littleEndianBytes(mask);
        }
        const water = this.state.water;
        yield littleEndianBytes(Int32Array.of(water ? 1 : 0));
        for (const grid of water ? WATER_GRIDS : []) yield littleEndianBytes((water as WaterGrids)[grid]);
        const materials = this.state.materials;
        yield littleEndianBytes(Int32Array.of(materials ? 1 : 0));
        for (const grid of materials ? MATERIAL_GRIDS : []) yield littleEndianBytes((materials as MaterialGrids)[grid]);
        for (const name of MATERIAL_MASKS) {
            const map = this.state.masks[name];
            yield littleEndianBytes(Int32Array.of(map ? 1 : 0));
            if (map) yield littleEndianBytes(map);
        }
    }

    /** Reads a snapshot written by `toArrayBuffer`; throws a clear error for anything else. */
    public static fromArrayBuffer(buffer: ArrayBuffer): ErosionSnapshot {
        const view = new DataView(buffer);
        const fail = (why: string): never => {
            throw new RangeError(`Not an erosion snapshot: ${why}.`);
        };
        if (buffer.byteLength < 4 + 4 * 5 + 8 * COUNTERS_OF_VERSION[6] + 4) fail(`${buffer.byteLength} bytes is too short`);
        let offset = 0;
        let magic = "";
        for (let i = 0; i < 4; i++) magic += String.fromCharCode(view.getUint8(offset++));
        if (magic !== MAGIC) fail(`it starts with ${JSON.stringify(magic)}, not "${MAGIC}"`);
        const [version, width, depth, cycle, batch] = [0, 1, 2, 3, 4].map(() => {
            const value = view.getUint32(offset, true);
            offset += 4;
            return value;
        });
        const storedCounters = COUNTERS_OF_VERSION[version];
        if (storedCounters === undefined) {
            fail(
                `version ${version} is not supported: this build reads versions 6 to ${SNAPSHOT_VERSION} (simulation contract 11: heights in 1/65536 of the ` +
                    `cell size, fill levels, the river operator's drainage area, five masks, the shallow water, the materials, the hardness and soil maps). ` +
                    `A snapshot of an older version cannot be resumed exactly; start again from its heights instead`
            );
        }
        const counters = new Float64Array(COUNTER_COUNT);
        for (let i = 0; i < storedCounters; i++) {
            counters[i] = view.getFloat64(offset, true);
            offset += 8;
        }
        const jsonLength = view.getUint32(offset, true);
        offset += 4;
        const cells = width * depth;
        if (buffer.byteLength < offset + Math.ceil(jsonLength / 4) * 4 + cells * 4 * GRIDS + 4 * MASKED_OPERATORS.length)
            fail(`${buffer.byteLength} bytes is too short for a ${width} x ${depth} state`);
        let header: Record<string, unknown>;
        try {
            header = objectOf(JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, offset, jsonLength))), "its header", fail);
        } catch (error) {
            return fail(`its header cannot be read (${error instanceof Error ? error.message : String(error)})`);
        }
        // Snapshots written before the runtime settings were split off carry them too: validated, then left out.
        const options = simulationOptions(resolveOptions(header.options as object));
        // The inputs the state carries are checked as the log's are (a snapshot may come from a file or a peer).
        const field = { width, depth };
        const eventsIn = header.events === undefined ? { inForce: [], pending: [] } : objectOf(header.events, "its events", fail);
        const events = {
            inForce: checkLocalEvents(eventsIn.inForce, field, fail, "its events in force"),
            pending: checkLocalEvents(eventsIn.pending, field, fail, "its pending events"),
        };
        const cellSize = typeof header.cellSize === "number" && Number.isFinite(header.cellSize) && header.cellSize > 0 ? header.cellSize : 1;
        offset += Math.ceil(jsonLength / 4) * 4;
        // One grid of `cells` little-endian i32 from the offset on (the caller checked the length).
        const readGrid = (): Int32Array => {
            const field = new Int32Array(cells);
            for (let i = 0; i < cells; i++) {
                field[i] = view.getInt32(offset, true);
                offset += 4;
            }
            return field;
        };
        const grids = {} as Record<(typeof STATE_GRIDS)[number], Int32Array>;
        for (const grid of STATE_GRIDS) grids[grid] = readGrid();
        const masks = noMasks();
        for (const operator of MASKED_OPERATORS) {
            const present = view.getUint32(offset, true);
            offset += 4;
            if (present) {
                if (buffer.byteLength < offset + cells * 4) fail(`the ${operator} mask is truncated`);
                masks[operator] = readGrid();
            }
        }
        if (buffer.byteLength < offset + 4) fail("the water flag is missing");
        const hasWater = view.getUint32(offset, true);
        offset += 4;
        let water: WaterGrids | null = null;
        if (hasWater) {
            if (buffer.byteLength < offset + cells * 4 * WATER_GRIDS.length) fail("the water grids are truncated");
            water = {} as WaterGrids;
            for (const grid of WATER_GRIDS) water[grid] = readGrid();
            // The velocity is a view the snapshot leaves out: worked out again from the pipes and depths.
            for (const grid of WATER_VIEW_GRIDS) water[grid] = new Int32Array(cells);
            refreshWaterVelocity(water, width, depth);
        }
        let materials: MaterialGrids | null = null;
        if (version >= 8) {
            if (buffer.byteLength < offset + 4) fail("the materials flag is missing");
            const hasMaterials = view.getUint32(offset, true);
            offset += 4;
            if (hasMaterials) {
                if (buffer.byteLength < offset + cells * 4 * MATERIAL_GRIDS.length) fail("the materials grids are truncated");
                materials = {} as MaterialGrids;
                for (const grid of MATERIAL_GRIDS) materials[grid] = readGrid();
            }
        }
        // The materials' maps: the hardness map from version 9, the soil map from version 10.
        for (const [name, since] of [["hardness", 9], ["soil", 10]] as const) {
            if (version < since) continue;
            if (buffer.byteLength < offset + 4) fail(`the ${name} map's flag is missing`);
            const hasMap = view.getUint32(offset, true);
            offset += 4;
            if (hasMap) {
                if (buffer.byteLength < offset + cells * 4) fail(`the ${name} map is truncated`);
                masks[name] = readGrid();
            }
        }
        if (offset !== buffer.byteLength) fail(`${buffer.byteLength - offset} bytes follow the state`);
        const sources = readSources(header.sources, field, fail);
        if (header.edits !== undefined && !Array.isArray(header.edits)) fail("its edits are not a list");
        const editList = ((header.edits as unknown[] | undefined) ?? []).map((edit) => checkGroundEdit(edit, field, fail));
        const edits = editList.length > 0 ? editList : undefined;
        for (const name of MASK_NAMES) if (masks[name]) checkMaskValues(name, masks[name], cells, fail);
        const logSeq = Number.isInteger(header.logSeq) && (header.logSeq as number) > 0 ? (header.logSeq as number) : 0;
        const pendingOptions = header.pendingOptions ? simulationOptions(resolveOptions(header.pendingOptions as object)) : null;
        const pendingMasks = header.pendingMasks ? readPendingMasks(objectOf(header.pendingMasks, "its pending masks", fail), cells, fail) : null;
        return new ErosionSnapshot(
            { width, depth, cycle, batch, ...grids, masks, water, materials, sources, edits, counters, events, pendingOptions, pendingMasks }, options,
            cellSize, logSeq
        );
    }
}

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** A grid's cells as little-endian bytes: its own memory on a little-endian host, else a copy. */
function littleEndianBytes(grid: Int32Array): Uint8Array {
    if (LITTLE_ENDIAN) return new Uint8Array(grid.buffer, grid.byteOffset, grid.byteLength);
    const bytes = new Uint8Array(grid.length * 4);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < grid.length; i++) view.setInt32(i * 4, grid[i], true);
    return bytes;
}

/** The options and masks a state has waiting for the next boundary, for the JSON header (masks as base64). */
function pendingHeader(state: ErosionStateData): { pendingOptions?: SimulationOptions; pendingMasks?: Record<string, string | null> } {
    const header: { pendingOptions?: SimulationOptions; pendingMasks?: Record<string, string | null> } = {};
    if (state.pendingOptions) header.pendingOptions = state.pendingOptions;
    if (state.pendingMasks)
        header.pendingMasks = Object.fromEntries(
            MASK_NAMES.map((name) => [name, state.pendingMasks![name] ? bytesToBase64(littleEndianBytes(state.pendingMasks![name]!)) : null])
        );
    return header;
}

function readPendingMasks(encoded: Record<string, unknown>, cells: number, fail: (why: string) => never): ErosionMasks {
    const masks = noMasks();
    for (const name of MASK_NAMES) {
        const value = encoded[name];
        if (value === null || value === undefined) continue;
        if (typeof value !== "string") fail(`its pending ${name} mask is not base64`);
        const bytes = base64ToBytes(value as string);
        if (bytes.length !== cells * 4) fail(`its pending ${name} mask holds ${bytes.length} bytes, not ${cells * 4}`);
        const view = new DataView(bytes.buffer);
        masks[name] = checkMaskValues(name, Int32Array.from({ length: cells }, (_, i) => view.getInt32(i * 4, true)), cells, fail);
    }
    return masks;
}

/** The header's water sources in force and pending (undefined: none), each list checked. */
function readSources(raw: unknown, field: InputField, fail: Refuse): ErosionStateData["sources"] {
    if (raw === undefined || raw === null) return undefined;
    const sources = objectOf(raw, "its sources", fail);
    const inForce = checkWaterSources(sources.inForce, field, fail, "its sources in force");
    const pending = sources.pending === null || sources.pending === undefined ? null : checkWaterSources(sources.pending, field, fail, "its pending sources");
    return inForce.length > 0 || pending ? { inForce, pending } : undefined;
}
