/** The erosion maps as one file's bytes (a checkpoint's `.maps`): water, wear and deposition, one `u32` grid after another. */
import type { ErosionMaps } from "../core/erosionMaps.js";

/** The maps as bytes. */
export function mapsBytes(maps: ErosionMaps): Uint8Array {
    const cells = maps.water.length;
    const all = new Uint32Array(cells * 3);
    all.set(maps.water, 0);
    all.set(maps.wear, cells);
    all.set(maps.deposition, cells * 2);
    return new Uint8Array(all.buffer);
}

/** The maps of a `cells`-vertex grid from what `mapsBytes` wrote, or null when the bytes are not that size. */
export function mapsFromBytes(bytes: Uint8Array, cells: number): ErosionMaps | null {
    if (bytes.byteLength !== cells * 12) return null;
    const all = new Uint32Array(cells * 3);
    new Uint8Array(all.buffer).set(bytes);
    return { water: all.slice(0, cells), wear: all.slice(cells, 2 * cells), deposition: all.slice(2 * cells) };
}

/** A copy of `bytes` as its own `ArrayBuffer`. */
export function bufferOf(bytes: Uint8Array): ArrayBuffer {
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
