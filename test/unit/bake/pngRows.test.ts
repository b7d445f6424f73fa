/**
 * The bake's PNGs written row by row (plugin/bake/pngRows.ts): the samples `encodeGray16Png` would
 * hold, read back by the PNG decoder, over several compressed pieces (more rows than one piece).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeGrayPng } from "../../../plugin/terrain.js";
import { writeGray16PngRows } from "../../../plugin/bake/pngRows.js";

describe("a 16-bit PNG written row by row", () => {
    it("reads back as the samples it was given, over several compressed pieces", async () => {
        const dir = mkdtempSync(join(tmpdir(), "png-rows-"));
        try {
            const width = 37;
            const height = 150;
            const samples = Uint16Array.from({ length: width * height }, (_, i) => (i * 7919 + ((i * i) >> 3)) & 0xffff);
            const file = join(dir, "rows.png");
            await writeGray16PngRows(file, width, height, (y, row) => row.set(samples.subarray(y * width, (y + 1) * width)));
            const bytes = readFileSync(file);
            const image = await decodeGrayPng(bytes);
            expect([image.width, image.height, image.bitDepth]).toEqual([width, height, 16]);
            expect(image.samples).toEqual(samples);
            // Compressed bytes are written as they come, an IDAT chunk each: more than one here.
            expect(bytes.toString("latin1").split("IDAT").length - 1).toBeGreaterThan(1);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
