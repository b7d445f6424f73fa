/** The erosion maps as one file's bytes (a checkpoint's `.maps`): water, wear and deposition, one little-endian `u32` grid after another. */
import type { ErosionMaps } from "../core/erosionMaps.js";

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** The maps' bytes as pieces to write one after another (their own memory on a little-endian host, so no copy of the maps). */
export function mapsChunks(maps: ErosionMaps): Uint8Array[] {
    return [maps.water, maps.wear, maps.deposition].map((map) => {
        if (LITTLE_ENDIAN) return new Uint8Array(map.buffer, map.byteOffset, map.byteLength);
        const bytes = new Uint8Array(map.byteLength);
        const view = new DataView(bytes.buffer);
        for (let i = 0; i < map.length; i++) view.setUint32(i * 4, map[i], true);
        return bytes;
    });
}

/** The maps of a `cells`-vertex grid from what `mapsBytes` wrote, or null when the bytes are not that size. */
export function mapsFromBytes(bytes: Uint8Array, cells: number): ErosionMaps | null {
    if (bytes.byteLength !== cells * 12) return null;
    const all = new Uint32Array(cells * 3);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < all.length; i++) all[i] = view.getUint32(i * 4, true);
    return { water: all.slice(0, cells), wear: all.slice(cells, 2 * cells), deposition: all.slice(2 * cells) };
}

/** A copy of `bytes` as its own `ArrayBuffer`. */
export function bufferOf(bytes: Uint8Array): ArrayBuffer {
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
