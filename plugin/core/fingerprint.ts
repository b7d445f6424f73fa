/**
 * The state fingerprint: FNV-1a, 64 bit, over a fixed byte layout (contract version 10).
 *
 * Bytes hashed, all little-endian:
 * 1. the ASCII tag `TEFP8` (so no other layout or contract can collide with this one; `TEFP1` had
 *    no flow counts, `TEFP2` no fill levels and heights in 1/65536 m rather than of the cell size,
 *    `TEFP3` flow counts instead of drainage area and three masks, `TEFP4` the batches of a cycle
 *    run patch after patch rather than class by class, `TEFP5` no water and four masks, `TEFP6`
 *    water whose flows kept their momentum against the surfaces' difference, `TEFP7` river deposits that
 *    stayed under every neighbouring fill level above their own, contract versions 8 to 13);
 * 2. u32 width, u32 depth, u32 cycle (completed cycles), u32 batch (completed batches of the
 *    cycle in progress);
 * 3. every value of each grid of `STATE_GRIDS` as i32, row-major, grid after grid: heights,
 *    suspended sediment, drainage area, fill levels;
 * 4. for each mask in `MASKED_OPERATORS` order (hydraulic, thermal, rivers, uplift, rain): u32 1
 *    and every value as i32 (Q16), or u32 0 when it has none;
 * 5. u32 2 and the water's grids (`WATER_GRIDS`: depth, sediment, the four pipes) as i32, or u32 0
 *    while water has never run. The mark was 1 up to contract version 12: version 13 changed the
 *    water's one-unit push (a lake comes to rest), so runs with water give other values;
 * 6. only if local erosion events (`erodeAt`) are in force or pending: the ASCII tag `EVENTS` and
 *    the ASCII JSON of `{ inForce, pending }` (each event: centre and radius in Q16 cells, droplets,
 *    its droplet options);
 * 7. only if water sources are in force or a change of them is pending: the ASCII tag `SOURCES`
 *    and the ASCII JSON of `{ inForce, pending }`;
 * 8. only if ground edits are stamped and not yet applied: the ASCII tag `EDITS` and the ASCII JSON
 *    of the list (each edit: stamp, id, kind, mode, rectangle, amounts, target). Contract version 7
 *    added it (a state without pending edits hashes as in version 6);
 * 9. only once the materials have run: the ASCII tag `MATERIALS2` and their grids
 *    (`MATERIAL_GRIDS`: soil, hardness) as i32. Contract version 9 added it (a state without
 *    materials hashes as in version 8); version 11 changed the tag from `MATERIALS`, as runs with
 *    the materials give other values (the channels' soil);
 * 10. only while a hardness map is set (`setMask("hardness")`): the ASCII tag `HARDNESSMAP` and
 *    its values as i32 (Q16). Contract version 10 added it (a state without one hashes as in
 *    version 9);
 * 11. only while a soil map is set (`setMask("soil")`): the ASCII tag `SOILMAP` and its values as
 *    i32 (Q16). Contract version 11 added it (a state without one hashes as in version 10).
 * Everything that affects later cycles is in it; the counters (outflow, steps) are not, since
 * they only report. Returned as 16 lowercase hex digits. The layout and the hash are fixed for
 * version 10; a change gets a new tag.
 */
import { MASKED_OPERATORS, MATERIAL_MASKS, STATE_GRIDS, type ErosionMasks, type StateGridName, type WaterSourceState } from "./erosionState.js";
import { WATER_GRIDS, type WaterGrids } from "./waterModel.js";
import { MATERIAL_GRIDS, type MaterialGrids } from "./materials.js";

/** The tag the fingerprint starts with: it names the contract version. */
export const FINGERPRINT_TAG = "TEFP8";

/** What a state with water hashes before the water's grids: 2 since contract version 13 (1 before it). */
const WATER_MARK = 2;

const FNV_OFFSET_HIGH = 0xcbf29ce4;
const FNV_OFFSET_LOW = 0x84222325;

/** Running FNV-1a 64 state, in four 16-bit limbs so every multiply stays exact in doubles. */
export class Fnv1a64 {
    private _h0 = FNV_OFFSET_LOW & 0xffff;
    private _h1 = FNV_OFFSET_LOW >>> 16;
    private _h2 = FNV_OFFSET_HIGH & 0xffff;
    private _h3 = FNV_OFFSET_HIGH >>> 16;

    /** Hashes one byte. */
    public byte(value: number): void {
        // h ^= byte; h *= 0x100000001b3 (= 2^40 + 0x1b3), modulo 2^64, limb by limb.
        const h0 = this._h0 ^ (value & 0xff);
        const h1 = this._h1;
        const h2 = this._h2;
        const h3 = this._h3;
        const t0 = h0 * 0x1b3;
        let t1 = h1 * 0x1b3;
        let t2 = h2 * 0x1b3 + (h0 << 8);
        let t3 = h3 * 0x1b3 + (h1 << 8);
        t1 += t0 >>> 16;
        this._h0 = t0 & 0xffff;
        t2 += t1 >>> 16;
        this._h1 = t1 & 0xffff;
        t3 += t2 >>> 16;
        this._h2 = t2 & 0xffff;
        this._h3 = t3 & 0xffff;
    }

    /** Hashes a u32 / i32 as four little-endian bytes. */
    public word(value: number): void {
        this.byte(value);
        this.byte(value >>> 8);
        this.byte(value >>> 16);
        this.byte(value >>> 24);
    }

    /** Hashes every element of an `Int32Array` as little-endian bytes. */
    public words(values: Int32Array): void {
        for (let i = 0; i < values.length; i++) {
            this.word(values[i]);
        }
    }

    /** Hashes an ASCII string, one byte per character. */
    public ascii(text: string): void {
        for (let i = 0; i < text.length; i++) {
            this.byte(text.charCodeAt(i));
        }
    }

    /** The hash as 16 lowercase hex digits. */
    public hex(): string {
        const high = ((this._h3 << 16) | this._h2) >>> 0;
        const low = ((this._h1 << 16) | this._h0) >>> 0;
        return high.toString(16).padStart(8, "0") + low.toString(16).padStart(8, "0");
    }
}

/** What the fingerprint covers. */
export interface FingerprintInput extends Readonly<Record<StateGridName, Int32Array>> {
    readonly width: number;
    readonly depth: number;
    readonly cycle: number;
    readonly batch: number;
    readonly masks?: Readonly<ErosionMasks>;
    readonly events?: { readonly inForce: readonly unknown[]; readonly pending: readonly unknown[] };
    readonly water?: WaterGrids | null;
    readonly sources?: WaterSourceState;
    readonly edits?: readonly unknown[];
    readonly materials?: MaterialGrids | null;
}

/** The contract fingerprint of a simulation state (16 hex digits). */
export function fingerprintOf(state: FingerprintInput): string {
    const hash = new Fnv1a64();
    hash.ascii(FINGERPRINT_TAG);
    hash.word(state.width);
    hash.word(state.depth);
    hash.word(state.cycle);
    hash.word(state.batch);
    for (const grid of STATE_GRIDS) {
        hash.words(state[grid]);
    }
    for (const operator of MASKED_OPERATORS) {
        const mask = state.masks?.[operator] ?? null;
        hash.word(mask ? 1 : 0);
        if (mask) {
            hash.words(mask);
        }
    }
    hash.word(state.water ? WATER_MARK : 0);
    for (const grid of state.water ? WATER_GRIDS : []) {
        hash.words((state.water as WaterGrids)[grid]);
    }
    if (state.events && (state.events.inForce.length > 0 || state.events.pending.length > 0)) {
        hash.ascii("EVENTS");
        hash.ascii(JSON.stringify({ inForce: state.events.inForce, pending: state.events.pending }));
    }
    if (state.sources && (state.sources.inForce.length > 0 || state.sources.pending !== null)) {
        hash.ascii("SOURCES");
        hash.ascii(JSON.stringify({ inForce: state.sources.inForce, pending: state.sources.pending }));
    }
    if (state.edits && state.edits.length > 0) {
        hash.ascii("EDITS");
        hash.ascii(JSON.stringify(state.edits));
    }
    if (state.materials) {
        hash.ascii("MATERIALS2");
        for (const grid of MATERIAL_GRIDS) hash.words(state.materials[grid]);
    }
    for (const name of MATERIAL_MASKS) {
        const map = state.masks?.[name] ?? null;
        if (!map) continue;
        hash.ascii(MATERIAL_MASK_TAGS[name]);
        hash.words(map);
    }
    return hash.hex();
}

/** The tag each of the materials' maps hashes after (only while it is set). */
const MATERIAL_MASK_TAGS: Record<(typeof MATERIAL_MASKS)[number], string> = { hardness: "HARDNESSMAP", soil: "SOILMAP" };
