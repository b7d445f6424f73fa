/** Bytes as base64 and back (`btoa`/`atob`: Node and browsers), for binary payloads inside JSON (the input log, a snapshot's header). */

/** `bytes` as base64, in chunks so a large array does not overflow the call's arguments. */
export function bytesToBase64(bytes: Uint8Array): string {
    let text = "";
    for (let start = 0; start < bytes.length; start += 0x8000) text += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
    return btoa(text);
}

/** Base64 back to bytes. */
export function base64ToBytes(text: string): Uint8Array {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
}
