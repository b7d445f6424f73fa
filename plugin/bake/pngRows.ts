/**
 * A 16-bit grayscale PNG written row by row through a zlib stream into a file, so a large bake's
 * heights and maps never exist whole as samples, scanlines or compressed bytes (at 8193² those are
 * some 600 MB, and were the bake's peak). The same scanlines as `encodeGray16Png`.
 */
import type { FileHandle } from "node:fs/promises";
import { open } from "node:fs/promises";
import { createDeflate } from "node:zlib";
import { chunk, filterGray16Row, pngHeader, SIGNATURE } from "../terrain/index.js";

/** Rows compressed at a time. */
const ROWS_PER_PIECE = 64;

/** Writes an IDAT chunk of each compressed piece as it comes. */
async function writeCompressed(handle: FileHandle, pieces: Buffer[]): Promise<void> {
    while (pieces.length > 0) await handle.write(chunk("IDAT", pieces.shift()!));
}

/**
 * Writes a `width` x `height` 16-bit grayscale PNG into `path`, asking `fillRow(y, row)` for the
 * samples of each row, top row first.
 */
export async function writeGray16PngRows(path: string, width: number, height: number, fillRow: (y: number, row: Uint16Array) => void): Promise<void> {
    const handle = await open(path, "w");
    try {
        await handle.write(new Uint8Array(SIGNATURE));
        await handle.write(chunk("IHDR", pngHeader(width, height, 16, 0)));
        const deflate = createDeflate();
        const pieces: Buffer[] = [];
        deflate.on("data", (piece: Buffer) => pieces.push(piece));
        const ended = new Promise<void>((resolve, reject) => {
            deflate.on("end", resolve);
            deflate.on("error", reject);
        });
        const stride = width * 2 + 1;
        const row = new Uint16Array(width);
        for (let y0 = 0; y0 < height; y0 += ROWS_PER_PIECE) {
            const rows = Math.min(ROWS_PER_PIECE, height - y0);
            const raw = new Uint8Array(rows * stride);
            for (let y = 0; y < rows; y++) {
                fillRow(y0 + y, row);
                filterGray16Row(row, raw, y * stride);
            }
            await new Promise<void>((resolve, reject) => deflate.write(raw, (error) => (error ? reject(error) : resolve())));
            await writeCompressed(handle, pieces);
        }
        deflate.end();
        await ended;
        await writeCompressed(handle, pieces);
        await handle.write(chunk("IEND", new Uint8Array(0)));
    } finally {
        await handle.close();
    }
}
