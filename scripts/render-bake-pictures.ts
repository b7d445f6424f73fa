// Renders the README's bake pictures: `npx tsx scripts/render-bake-pictures.ts`. Bakes the Mont Blanc
// DEM the sample uses with the bake command's function (20 cycles, every core), then draws the input
// and the baked heights as the same shaded relief (light from the north-west, colour by height), so
// the pictures show exactly the files the command read and wrote.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bake } from "../plugin/bake/index.js";
import { decodeGrayPng, encodeRgb8Png, samplesToHeights, type HeightRange } from "../plugin/terrain.js";

const ROOT = process.cwd();
const INPUT = join(ROOT, "sample-scene/public/alps-montblanc.png");
const RANGE = { min: 454, max: 4810 };
const EXTENT = 60000;
const CYCLES = 20;
/** The picture: the DEM's north-east quarter around the Mer de Glace, where valleys are dense. */
const CROP = { x0: 160, y0: 120, size: 400 };

/** Shaded relief of `heights` (metres) over the crop: a height ramp (green, brown, grey, white) times a hillshade. */
function shadedRelief(heights: Float32Array, width: number, cellSize: number, range: HeightRange): Uint8Array {
    const { x0, y0, size } = CROP;
    const pixels = new Uint8Array(size * size * 3);
    const ramp = [
        [0, [70, 110, 60]],
        [0.35, [140, 130, 90]],
        [0.65, [150, 145, 140]],
        [1, [250, 250, 250]],
    ] as const;
    for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
            const i = (y0 + y) * width + x0 + x;
            const dx = (heights[i + 1] - heights[i - 1]) / (2 * cellSize);
            const dy = (heights[i + width] - heights[i - width]) / (2 * cellSize);
            // Light from the north-west, 45 degrees up; rows grow southward.
            const normal = [-dx, -dy, 1].map((v) => v / Math.hypot(dx, dy, 1));
            const light = [-0.5, -0.5, Math.SQRT1_2];
            const shade = Math.max(0.15, normal[0] * light[0] + normal[1] * light[1] + normal[2] * light[2]);
            const t = Math.min(1, Math.max(0, (heights[i] - range.min) / (range.max - range.min)));
            const k = ramp.findIndex(([at]) => at >= t);
            const [a, ca] = ramp[Math.max(0, k - 1)];
            const [b, cb] = ramp[k];
            const f = b > a ? (t - a) / (b - a) : 0;
            for (let c = 0; c < 3; c++) pixels[(y * size + x) * 3 + c] = Math.round((ca[c] + (cb[c] - ca[c]) * f) * shade);
        }
    }
    return pixels;
}

async function main(): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), "bake-pictures-"));
    const out = join(dir, "montblanc.png");
    const summary = await bake({ input: INPUT, out, cycles: CYCLES, scale: { extent: { width: EXTENT, height: EXTENT }, heightRange: RANGE } });
    const report = summary.report!;
    console.log(`baked ${CYCLES} cycles in ${(report.seconds as number).toFixed(1)} s on ${report.device as string}; fingerprint ${summary.fingerprint}`);
    const before = await decodeGrayPng(readFileSync(INPUT));
    const after = await decodeGrayPng(readFileSync(out));
    const cellSize = EXTENT / (before.width - 1);
    for (const [name, image, range] of [["before", before, RANGE], ["after", after, report.heightRange as HeightRange]] as const) {
        const png = await encodeRgb8Png(shadedRelief(samplesToHeights(image.samples, range), image.width, cellSize, RANGE), CROP.size, CROP.size);
        writeFileSync(join(ROOT, `docs/images/bake-montblanc-${name}.png`), png);
    }
}

main().catch((error) => {
    console.error(error);
    process.exit(1);
});
