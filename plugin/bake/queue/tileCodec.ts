/**
 * The bytes a tile job's input and output travel as in Redis: a small JSON header (what the cells
 * are) and the cells themselves as little-endian `i32`s, one section after another. One value, so a
 * job's output is written with one `SET`, atomically: a retried job replaces it whole.
 */

/** "TEQ2" as a little-endian u32: marks a blob and its format version (coordinator and workers must agree). */
const MAGIC = 0x32514554;

/** A decoded blob: its header and its `i32` sections, in order. */
export interface TileBlob<Header> {
    readonly header: Header;
    readonly sections: readonly Int32Array[];
}

/** Why a blob cannot be read (a truncated write, a foreign key, another format version). */
export class TileBlobError extends Error {
    public override readonly name = "TileBlobError";
}

/** `header` and `sections` as one buffer: magic, header length, header (UTF-8 JSON, padded to 4 bytes), section lengths, sections. */
export function encodeTileBlob(header: unknown, sections: readonly Int32Array[]): Uint8Array {
    const json = new TextEncoder().encode(JSON.stringify(header));
    const headerInts = Math.ceil(json.length / 4);
    const cells = sections.reduce((sum, section) => sum + section.length, 0);
    const ints = new Int32Array(3 + headerInts + sections.length + cells);
    ints[0] = MAGIC;
    ints[1] = json.length;
    ints[2] = sections.length;
    new Uint8Array(ints.buffer, 12, json.length).set(json);
    let offset = 3 + headerInts;
    for (const section of sections) ints[offset++] = section.length;
    for (const section of sections) {
        ints.set(section, offset);
        offset += section.length;
    }
    return new Uint8Array(ints.buffer);
}

/** Reads what `encodeTileBlob` wrote (a copy, so the sections are aligned whatever buffer `bytes` sits in). */
export function decodeTileBlob<Header>(bytes: Uint8Array, what: string): TileBlob<Header> {
    if (bytes.byteLength % 4 !== 0 || bytes.byteLength < 12) throw new TileBlobError(`${what} is ${bytes.byteLength} bytes: not a tile blob (truncated?).`);
    const ints = new Int32Array(bytes.byteLength / 4);
    new Uint8Array(ints.buffer).set(bytes);
    if (ints[0] !== MAGIC)
        throw new TileBlobError(`${what} is not a tile blob of this version of terrain-erosion: run the coordinator and every worker from the same version.`);
    const headerBytes = ints[1];
    const count = ints[2];
    const headerInts = Math.ceil(headerBytes / 4);
    if (headerBytes < 0 || count < 0 || 3 + headerInts + count > ints.length) throw new TileBlobError(`${what} is truncated (its header does not fit).`);
    const header = JSON.parse(new TextDecoder().decode(new Uint8Array(ints.buffer, 12, headerBytes))) as Header;
    let offset = 3 + headerInts + count;
    const sections: Int32Array[] = [];
    for (let k = 0; k < count; k++) {
        const length = ints[3 + headerInts + k];
        if (length < 0 || offset + length > ints.length) throw new TileBlobError(`${what} is truncated (section ${k} of ${count}).`);
        sections.push(ints.subarray(offset, offset + length));
        offset += length;
    }
    if (offset !== ints.length) throw new TileBlobError(`${what} has ${ints.length - offset} stray cells after its sections.`);
    return { header, sections };
}
