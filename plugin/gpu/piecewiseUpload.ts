/**
 * Buffer writes spread over frames: a start's upload of the whole state (at 4097², an 8 x 8 world,
 * some 670 MB with the water) would otherwise be copied in one frame. Writes land in order, each
 * cut at whole 4-byte words, and nothing else may be recorded on the device between the pieces
 * (the backend is not handed out before the last one).
 */
import type { ComputeBuffer, ComputeDevice } from "./computeDevice.js";

/** A buffer's new contents from its start. */
export interface BufferWrite {
    readonly buffer: ComputeBuffer;
    readonly data: ArrayBufferView;
}

/** Bytes a frame of a start's upload writes: a few milliseconds of copying on a desktop. */
export const UPLOAD_PIECE_BYTES = 8 * 1024 * 1024;

/**
 * Makes `writes` in pieces of about `bytesPerPiece`, awaiting `between()` after each piece but the
 * last. Returns the number of pieces.
 */
export async function writeInPieces(
    device: ComputeDevice, writes: readonly BufferWrite[], bytesPerPiece: number, between: () => Promise<void>
): Promise<number> {
    const pieceBytes = Math.max(4, bytesPerPiece - (bytesPerPiece % 4));
    let pieces = 1;
    let inPiece = 0;
    for (const { buffer, data } of writes) {
        for (let offset = 0; offset < data.byteLength; ) {
            if (inPiece >= pieceBytes) {
                await between();
                pieces++;
                inPiece = 0;
            }
            const length = Math.min(data.byteLength - offset, pieceBytes - inPiece);
            device.writeBuffer(buffer, new Uint8Array(data.buffer, data.byteOffset + offset, length), offset);
            offset += length;
            inPiece += length;
        }
    }
    return pieces;
}
