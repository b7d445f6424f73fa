/**
 * RAW / R16 heightmaps: 16-bit unsigned samples row by row from the top row, no header (what
 * Unity's "Import Raw" and Unreal's .r16 import read). Little-endian is Unity's "Windows" byte
 * order and Unreal's; big-endian Unity's "Mac". No library: the format is the bytes themselves.
 */

/** Byte order of a RAW16 file. */
export type Endian = "little" | "big";

/** The samples of a RAW16 file of `width` x `depth`; throws naming what is wrong. */
export function decodeRaw16(bytes: Uint8Array, width: number, depth: number, endian: Endian): Uint16Array {
    if (bytes.length !== width * depth * 2) {
        throw new Error(`${bytes.length} bytes, but ${width} x ${depth} 16-bit samples are ${width * depth * 2} bytes (set the size with --size WIDTHxDEPTH)`);
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const samples = new Uint16Array(width * depth);
    const little = endian === "little";
    for (let i = 0; i < samples.length; i++) samples[i] = view.getUint16(i * 2, little);
    return samples;
}

/** `samples` as a RAW16 file. */
export function encodeRaw16(samples: Uint16Array, endian: Endian): Uint8Array {
    const bytes = new Uint8Array(samples.length * 2);
    const view = new DataView(bytes.buffer);
    const little = endian === "little";
    for (let i = 0; i < samples.length; i++) view.setUint16(i * 2, samples[i], little);
    return bytes;
}

/** The side of a square RAW16 file of `byteLength` bytes, or null when it is not one (engines' raws are square). */
export function squareRaw16Side(byteLength: number): number | null {
    const side = Math.round(Math.sqrt(byteLength / 2));
    return side * side * 2 === byteLength ? side : null;
}
