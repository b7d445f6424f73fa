/**
 * Region checksums: a 64-bit checksum per square region of the field, computed where the state lives
 * (a compute pass on the GPU reads back 8 bytes a region, not the grids), so peers can compare
 * their terrains every few seconds and find where they part: two states that differ in one vertex
 * differ in exactly the checksum of the region that holds it.
 *
 * Regions: `size` x `size` vertices, region (rx, ry) holding columns rx·size .. and rows ry·size ..
 * (the last ones cut by the field's edge), numbered row by row. Each region's two u32 lanes start
 * at `LANE_A_START`, `LANE_B_START` and take in every vertex of the region row by row, and for each
 * vertex the grids of `CHECKSUM_PASSES[0]` (the state's four and the first three water grids), then
 * a second time over the region for the grids of `CHECKSUM_PASSES[1]` (the other seven water
 * grids): the GPU runs each pass as one kernel (no kernel may bind more storage buffers). Without
 * water only the state's four grids. Once the materials have run, a last pass takes in each
 * vertex's soil and hardness factor (`MATERIAL_GRIDS`). Lane a is FNV-1a 32 over whole words; lane b a MurmurHash3-
 * style mix; both wrap at 2^32 (`Math.imul`; WGSL's u32 multiply). Mirrors `shaders/checksums/region_checksums.wgsl`.
 */
import { STATE_GRIDS, type ErosionStateData } from "../erosionState.js";
import { Fnv1a64 } from "../fingerprint.js";
import type { WaterGrids } from "../waterModel.js";
import { MATERIAL_GRIDS } from "../materialGrids.js";

/** The grids each pass takes in, in order (the first pass's water grids only when water has run). */
export const CHECKSUM_PASSES = [
    [...STATE_GRIDS, "waterDepth", "waterSediment", "fluxX"],
    ["fluxY", "fluxD1", "fluxD2", "outflowScale", "waterNext", "sedimentNext", "groundChange"],
] as const;

/** Invocations per workgroup of the checksum kernels (one a region). */
export const CHECKSUM_WORKGROUP_SIZE = 64;

/** The lanes' starting values. */
export const LANE_A_START = 0x811c9dc5;
export const LANE_B_START = 0x9747b28c;

/** The default region side, in vertices. */
export const DEFAULT_CHECKSUM_REGION = 32;

/** One region's checksums: the regions' lanes, and how the field is cut. */
export interface RegionChecksums {
    /** Region side, in vertices. */
    readonly size: number;
    /** Regions per row and rows of regions. */
    readonly regionsX: number;
    readonly regionsY: number;
    /** Lane a and lane b of each region, region after region (row by row). */
    readonly lanes: Uint32Array;
}

/** Throws unless `size` is a whole number of vertices in [2, 4096]. */
export function validateRegionSize(size: number): void {
    if (!Number.isInteger(size) || size < 2 || size > 4096) {
        throw new RangeError(`regionChecksums: size is ${size}: it must be a whole number of vertices in [2, 4096].`);
    }
}

/** Regions per row and rows of regions of a width x depth field. */
export function regionGrid(width: number, depth: number, size: number): { regionsX: number; regionsY: number } {
    return { regionsX: Math.ceil(width / size), regionsY: Math.ceil(depth / size) };
}

/** Takes one word into both lanes of region `r` of `lanes`. Mirrors `mixWord` in the WGSL. */
export function mixWord(lanes: Uint32Array, r: number, word: number): void {
    lanes[r] = Math.imul(lanes[r] ^ word, 0x01000193);
    const k = Math.imul(word, 0xcc9e2d51);
    const b = lanes[r + 1] ^ k;
    lanes[r + 1] = (Math.imul((b << 15) | (b >>> 17), 0x1b873593) + 0xe6546b64) >>> 0;
}

/** The checksums of `state`'s regions of `size` vertices. */
export function regionChecksums(
    state: Pick<ErosionStateData, "width" | "depth" | "water" | "materials"> & Pick<ErosionStateData, (typeof STATE_GRIDS)[number]>,
    size = DEFAULT_CHECKSUM_REGION
): RegionChecksums {
    validateRegionSize(size);
    const { width, depth } = state;
    const { regionsX, regionsY } = regionGrid(width, depth, size);
    const lanes = new Uint32Array(2 * regionsX * regionsY);
    const water = state.water ?? null;
    const gridOf = (name: string): Int32Array =>
        (name in state ? (state as unknown as Record<string, Int32Array>)[name] : (water as WaterGrids)[name as keyof WaterGrids]);
    const materials = state.materials ?? null;
    const passes: Int32Array[][] = CHECKSUM_PASSES.filter((_, pass) => pass === 0 || water).map((names) =>
        names.filter((name) => water || (STATE_GRIDS as readonly string[]).includes(name)).map(gridOf)
    );
    if (materials) passes.push(MATERIAL_GRIDS.map((name) => materials[name]));
    for (const [pass, grids] of passes.entries()) {
        for (let ry = 0; ry < regionsY; ry++) {
            for (let rx = 0; rx < regionsX; rx++) {
                const r = 2 * (ry * regionsX + rx);
                // The lanes in locals, mixed inline: the loop is the whole cost (mixWord is the rule).
                let a = pass === 0 ? LANE_A_START : lanes[r];
                let b = pass === 0 ? LANE_B_START : lanes[r + 1];
                for (let y = ry * size; y < Math.min(depth, (ry + 1) * size); y++) {
                    for (let x = rx * size; x < Math.min(width, (rx + 1) * size); x++) {
                        const i = y * width + x;
                        for (let g = 0; g < grids.length; g++) {
                            const word = grids[g][i];
                            a = Math.imul(a ^ word, 0x01000193);
                            const k = b ^ Math.imul(word, 0xcc9e2d51);
                            b = (Math.imul((k << 15) | (k >>> 17), 0x1b873593) + 0xe6546b64) | 0;
                        }
                    }
                }
                lanes[r] = a;
                lanes[r + 1] = b;
            }
        }
    }
    return { size, regionsX, regionsY, lanes };
}

/** Region `index`'s checksum as 16 hex digits (lane a, then lane b). */
export function regionChecksumHex(checksums: RegionChecksums, index: number): string {
    return checksums.lanes[2 * index].toString(16).padStart(8, "0") + checksums.lanes[2 * index + 1].toString(16).padStart(8, "0");
}

/** One checksum of the whole field: FNV-1a 64 over the regions' lanes in order. */
export function combinedChecksum(checksums: RegionChecksums): string {
    const hash = new Fnv1a64();
    hash.word(checksums.size);
    hash.word(checksums.regionsX);
    hash.word(checksums.regionsY);
    for (const lane of checksums.lanes) hash.word(lane);
    return hash.hex();
}

/** The regions (indices) whose checksums differ between `a` and `b` (cut the same way). */
export function differingRegions(a: RegionChecksums, b: RegionChecksums): number[] {
    if (a.size !== b.size || a.regionsX !== b.regionsX || a.regionsY !== b.regionsY) {
        throw new RangeError(
            `differingRegions: the checksums are of ${a.regionsX} x ${a.regionsY} regions of ${a.size} and ` +
                `${b.regionsX} x ${b.regionsY} of ${b.size}: compare checksums of one field cut one way.`
        );
    }
    const regions: number[] = [];
    for (let r = 0; r < a.lanes.length / 2; r++) {
        if (a.lanes[2 * r] !== b.lanes[2 * r] || a.lanes[2 * r + 1] !== b.lanes[2 * r + 1]) regions.push(r);
    }
    return regions;
}
