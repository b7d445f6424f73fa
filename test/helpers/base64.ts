/** Int32Array <-> base64, for moving whole fields between Node and a browser page. */

/** Encodes the bytes of an `Int32Array` as base64. */
export function encodeInt32(values: Int32Array): string {
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
        binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return btoa(binary);
}

/** Decodes base64 made by `encodeInt32`. */
export function decodeInt32(text: string): Int32Array {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) {
        bytes[i] = binary.charCodeAt(i);
    }
    return new Int32Array(bytes.buffer);
}
