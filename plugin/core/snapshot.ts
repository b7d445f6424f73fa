/**
 * Snapshots: the whole simulation state plus the options in force, serializable to an
 * `ArrayBuffer` (for saving games, sending to peers, or bug reports).
 *
 * Layout (little-endian, version 2): ASCII `TESN`; u32 version; u32 width, depth, cycle, batch;
 * f64 counters (`COUNTER_NAMES` order); u32 byte length of a JSON header ({ options, events: the
 * local erosion events in force and pending }), the UTF-8 JSON,
 * zero padding to a multiple of 4; i32 heights; i32 suspended; i32 flow counts; then for each
 * mask (hydraulic, thermal, flow): u32 1 and i32 values, or u32 0.
 */
import { COUNTER_COUNT } from "./counters.js";
import { cloneState, fingerprintOf, MASKED_OPERATORS, noMasks, type ErosionStateData } from "./erosionState.js";
import { resolveOptions, type ErosionOptions } from "./options.js";

const MAGIC = "TESN";
const VERSION = 2;
/** Grids per snapshot: heights, suspended, flow counts. */
const GRIDS = 3;

/** A copy of the whole erosion state at one batch, with the options in force. */
export class ErosionSnapshot {
    /** The state (owned by the snapshot; copy it before changing it). */
    public readonly state: ErosionStateData;
    /** Options in force when the snapshot was taken. */
    public readonly options: ErosionOptions;

    constructor(state: ErosionStateData, options: Readonly<ErosionOptions>) {
        this.state = cloneState(state);
        this.options = resolveOptions({}, options);
    }

    /** The contract fingerprint of the snapshot's state. */
    public get fingerprint(): string {
        return fingerprintOf(this.state);
    }

    /** Serializes to the version-1 binary layout. */
    public toArrayBuffer(): ArrayBuffer {
        const json = new TextEncoder().encode(JSON.stringify({ options: this.options, events: this.state.events ?? { inForce: [], pending: [] } }));
        const paddedJson = Math.ceil(json.length / 4) * 4;
        const cells = this.state.width * this.state.depth;
        const headerBytes = 4 + 4 * 5 + 8 * COUNTER_COUNT + 4;
        const maskBytes = MASKED_OPERATORS.reduce((sum, operator) => sum + 4 + (this.state.masks[operator] ? cells * 4 : 0), 0);
        const buffer = new ArrayBuffer(headerBytes + paddedJson + cells * 4 * GRIDS + maskBytes);
        const view = new DataView(buffer);
        let offset = 0;
        for (let i = 0; i < 4; i++) view.setUint8(offset++, MAGIC.charCodeAt(i));
        for (const value of [VERSION, this.state.width, this.state.depth, this.state.cycle, this.state.batch]) {
            view.setUint32(offset, value, true);
            offset += 4;
        }
        for (let i = 0; i < COUNTER_COUNT; i++) {
            view.setFloat64(offset, this.state.counters[i], true);
            offset += 8;
        }
        view.setUint32(offset, json.length, true);
        offset += 4;
        new Uint8Array(buffer, offset, json.length).set(json);
        offset += paddedJson;
        for (const field of [this.state.heights, this.state.suspended, this.state.flowCounts]) {
            for (let i = 0; i < cells; i++) {
                view.setInt32(offset, field[i], true);
                offset += 4;
            }
        }
        for (const operator of MASKED_OPERATORS) {
            const mask = this.state.masks[operator];
            view.setUint32(offset, mask ? 1 : 0, true);
            offset += 4;
            for (let i = 0; mask && i < cells; i++) {
                view.setInt32(offset, mask[i], true);
                offset += 4;
            }
        }
        return buffer;
    }

    /** Reads a snapshot written by `toArrayBuffer`; throws a clear error for anything else. */
    public static fromArrayBuffer(buffer: ArrayBuffer): ErosionSnapshot {
        const view = new DataView(buffer);
        const fail = (why: string): never => {
            throw new RangeError(`Not an erosion snapshot: ${why}.`);
        };
        if (buffer.byteLength < 4 + 4 * 5 + 8 * COUNTER_COUNT + 4) fail(`${buffer.byteLength} bytes is too short`);
        let offset = 0;
        let magic = "";
        for (let i = 0; i < 4; i++) magic += String.fromCharCode(view.getUint8(offset++));
        if (magic !== MAGIC) fail(`it starts with ${JSON.stringify(magic)}, not "${MAGIC}"`);
        const [version, width, depth, cycle, batch] = [0, 1, 2, 3, 4].map(() => {
            const value = view.getUint32(offset, true);
            offset += 4;
            return value;
        });
        if (version !== VERSION) fail(`version ${version} is not supported (this build reads version ${VERSION})`);
        const counters = new Float64Array(COUNTER_COUNT);
        for (let i = 0; i < COUNTER_COUNT; i++) {
            counters[i] = view.getFloat64(offset, true);
            offset += 8;
        }
        const jsonLength = view.getUint32(offset, true);
        offset += 4;
        const cells = width * depth;
        if (buffer.byteLength < offset + Math.ceil(jsonLength / 4) * 4 + cells * 4 * GRIDS + 4 * MASKED_OPERATORS.length) fail(`${buffer.byteLength} bytes is too short for a ${width} x ${depth} state`);
        const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, offset, jsonLength)));
        const options = resolveOptions(header.options);
        const events = header.events;
        offset += Math.ceil(jsonLength / 4) * 4;
        const heights = new Int32Array(cells);
        const suspended = new Int32Array(cells);
        const flowCounts = new Int32Array(cells);
        for (const field of [heights, suspended, flowCounts]) {
            for (let i = 0; i < cells; i++) {
                field[i] = view.getInt32(offset, true);
                offset += 4;
            }
        }
        const masks = noMasks();
        for (const operator of MASKED_OPERATORS) {
            const present = view.getUint32(offset, true);
            offset += 4;
            if (present) {
                if (buffer.byteLength < offset + cells * 4) fail(`the ${operator} mask is truncated`);
                const mask = new Int32Array(cells);
                for (let i = 0; i < cells; i++) {
                    mask[i] = view.getInt32(offset, true);
                    offset += 4;
                }
                masks[operator] = mask;
            }
        }
        if (offset !== buffer.byteLength) fail(`${buffer.byteLength - offset} bytes follow the state`);
        return new ErosionSnapshot({ width, depth, cycle, batch, heights, suspended, flowCounts, masks, counters, events }, options);
    }
}
