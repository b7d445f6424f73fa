/// <reference path="./three.d.ts" />
/**
 * OpenEXR heightmaps and maps, float32. Read with parse-exr (three.js's EXR decoder as a standalone
 * package: scanline and tiled files, every compression three.js decodes, half and float channels; a
 * single-channel file's channel is `Y`); written with three.js's EXRExporter (ZIP-compressed float
 * RGBA: the only layout it writes). Both keep textures' bottom-up row order, so rows are turned over
 * here: a file's first scanline is the heightmap's top row, as every terrain tool reads it. Both
 * libraries load only when an EXR is read or written (the CLI package's dependencies).
 */

const FLOAT_TYPE = 1015;
const RED_FORMAT = 1028;

/** An EXR's heights (its `Y` channel, or `R` of an RGB(A) file), metres, top row first. */
export async function decodeExrHeights(bytes: Uint8Array): Promise<{ width: number; depth: number; heights: Float32Array }> {
    const { default: parseExr } = await import("parse-exr");
    let decoded: ReturnType<typeof parseExr>;
    try {
        decoded = parseExr(bytes.slice().buffer, FLOAT_TYPE);
    } catch (error) {
        throw new Error(`not an OpenEXR image the bake reads (${(error as Error).message.replace(/^THREE\.EXRLoader: /, "")})`);
    }
    const { width, height, data, format } = decoded;
    const channels = format === RED_FORMAT ? 1 : 4;
    if (!(data instanceof Float32Array) || data.length !== width * height * channels)
        throw new Error(`its pixels did not decode to ${width} x ${height} floats`);
    const heights = new Float32Array(width * height);
    for (let y = 0; y < height; y++) {
        const from = (height - 1 - y) * width; // bottom-up in the decoder's output
        for (let x = 0; x < width; x++) heights[y * width + x] = data[(from + x) * channels];
    }
    const bad = heights.findIndex((value) => !Number.isFinite(value));
    if (bad >= 0)
        throw new Error(
            `height ${bad} (row ${Math.floor(bad / width)}, column ${bad % width}) is ${heights[bad]}; every height must be a finite number of metres`
        );
    return { width, depth: height, heights };
}

/** An EXR of four float channels R, G, B, A (each `width` x `depth`, top row first). */
export async function encodeExr(
    width: number, depth: number, channels: readonly [Float32Array, Float32Array, Float32Array, Float32Array]
): Promise<Uint8Array> {
    const [{ DataTexture, RGBAFormat, FloatType }, { EXRExporter, ZIP_COMPRESSION }] = await Promise.all([
        import("three"),
        import("three/examples/jsm/exporters/EXRExporter.js"),
    ]);
    const pixels = new Float32Array(width * depth * 4);
    for (let y = 0; y < depth; y++) {
        const to = (depth - 1 - y) * width; // the exporter takes texture rows, bottom-up
        for (let x = 0; x < width; x++) {
            for (let c = 0; c < 4; c++) pixels[(to + x) * 4 + c] = channels[c][y * width + x];
        }
    }
    const texture = new DataTexture(pixels, width, depth, RGBAFormat, FloatType);
    return new EXRExporter().parse(texture, { type: FloatType, compression: ZIP_COMPRESSION });
}
