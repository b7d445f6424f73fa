/**
 * The bake's file formats: RAW16 (both byte orders), float32 OpenEXR and 16-bit / float32 TIFF and
 * GeoTIFF in and out, beside PNG16 and raw float32. Round trips keep the heights to the format's
 * precision; a bake from each input gives the fingerprint of the same heights as raw float32; each
 * output is read back by a reader other than the library that wrote it (parse-exr for three.js's
 * EXRs, image-js's `tiff` for geotiff.js's TIFFs, its `fast-png` for ours, DataView for RAW16); the engine presets write what
 * the importers take; bad files are refused naming the file and the problem, and nothing is written.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import parseExr from "parse-exr";
import { decode as decodeTiff } from "tiff";
import { decode as decodePng } from "fast-png";
import { writeArrayBuffer } from "geotiff";
import { encodeGray16Png, generateNoiseTerrain, heightsToSamples, samplesToHeights } from "../../../plugin/terrain.js";
import { ErosionSnapshot, fixedToHeights } from "../../../plugin/index.js";
import { bake, decodeExrHeights, decodeRaw16, decodeTiffHeights, encodeExr, encodeRaw16, encodeTiff } from "../../../plugin/internal.js";
import { singleChannelExr } from "../../helpers/exrFixture.js";

const SIZE = 33;
const RANGE = { min: -5, max: 35 };
/** GeoTIFF keys of a local projected model in metres, 1 m pixels (geotiff.js writes a geographic one without them). */
const METRE_PIXELS = { ModelPixelScale: [1, 1, 0], ModelTiepoint: [0, 0, 0, 0, 0, 0], GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 32767, ProjLinearUnitsGeoKey: 9001 };
const OPTIONS = { patchSize: 16, hydraulic: { dropletsPerBatch: 64 }, rivers: { stepsPerBatch: 4 } };

let dir: string;
let optionsFile: string;
const heights = generateNoiseTerrain({ width: SIZE, depth: SIZE, relief: 30, seed: 5 });
const { samples } = heightsToSamples(heights, RANGE);
const sampled = samplesToHeights(samples, RANGE);

const write = (name: string, bytes: Uint8Array | ArrayBuffer) => {
    const path = join(dir, name);
    writeFileSync(path, bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes);
    return path;
};
const f32 = (values: Float32Array) => new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
const bakeOne = (input: string, out: string, extra: Partial<Parameters<typeof bake>[0]> = {}) => bake({ input, out: join(dir, out), cycles: 1, optionsFile, workers: 1, ...extra });
const snapshotHeights = (prefix: string, cellSize = 1) => {
    const snapshot = ErosionSnapshot.fromArrayBuffer(new Uint8Array(readFileSync(join(dir, `${prefix}.snapshot`))).buffer);
    return fixedToHeights(snapshot.state.heights, undefined, cellSize);
};

beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "bake-formats-"));
    optionsFile = write("options.json", new TextEncoder().encode(JSON.stringify(OPTIONS)));
});

describe("the bake's formats", () => {
    it("round-trips each format to its precision, read back by an independent reader", async () => {
        // RAW16, both byte orders: DataView reads what encodeRaw16 wrote.
        for (const endian of ["little", "big"] as const) {
            const bytes = encodeRaw16(samples, endian);
            const view = new DataView(bytes.buffer);
            expect(Uint16Array.from({ length: samples.length }, (_, i) => view.getUint16(i * 2, endian === "little"))).toEqual(samples);
            expect(decodeRaw16(bytes, SIZE, SIZE, endian)).toEqual(samples);
        }
        // EXR: three.js writes, parse-exr reads (float32: exact); the file's first scanline is the top row.
        const exr = await encodeExr(SIZE, SIZE, [heights, heights, heights, new Float32Array(heights.length).fill(1)]);
        const parsed = parseExr(exr.slice().buffer, 1015);
        expect(parsed).toMatchObject({ width: SIZE, height: SIZE, format: 1023 });
        // parse-exr returns texture rows, bottom-up (as three.js's loader): its last row is the file's first.
        expect(Array.from({ length: SIZE }, (_, x) => parsed.data[((SIZE - 1) * SIZE + x) * 4])).toEqual(Array.from(heights.subarray(0, SIZE)));
        expect((await decodeExrHeights(exr)).heights).toEqual(heights);
        // A single-channel (Y) EXR written from the file layout reads to the same heights.
        expect((await decodeExrHeights(singleChannelExr(heights, SIZE, SIZE))).heights).toEqual(heights);
        // TIFF: geotiff.js writes, image-js's tiff reads; the pixel size comes back as the cell size.
        const tiff = await encodeTiff(heights, SIZE, SIZE, 2.5);
        const [image] = decodeTiff(tiff);
        expect({ width: image.width, height: image.height, bits: image.bitsPerSample, data: Float32Array.from(image.data) }).toEqual({ width: SIZE, height: SIZE, bits: 32, data: heights });
        expect(await decodeTiffHeights(tiff)).toMatchObject({ width: SIZE, depth: SIZE, cellSize: 2.5, kind: "float32", heights });
    });

    it("bakes each input to the fingerprint of the same heights as raw float32", async () => {
        const exact = (await bakeOne(write("exact.f32", f32(heights)), "exact-out.f32", { scale: { size: { width: SIZE, depth: SIZE } } })).fingerprint;
        const sixteen = (await bakeOne(write("sixteen.f32", f32(sampled)), "sixteen-out.f32", { scale: { size: { width: SIZE, depth: SIZE } } })).fingerprint;
        const inputs: [string, Uint8Array | ArrayBuffer, string, Partial<Parameters<typeof bake>[0]>][] = [
            ["in.png", await encodeGray16Png(samples, SIZE, SIZE), sixteen, { scale: { heightRange: RANGE } }],
            ["in.r16", encodeRaw16(samples, "little"), sixteen, { scale: { heightRange: RANGE } }],
            ["in-mac.raw", encodeRaw16(samples, "big"), sixteen, { scale: { heightRange: RANGE, endian: "big" } }],
            ["in16.tif", writeArrayBuffer(samples, { width: SIZE, height: SIZE, ...METRE_PIXELS } as never), sixteen, { scale: { heightRange: RANGE } }],
            ["in.exr", await encodeExr(SIZE, SIZE, [heights, heights, heights, heights]), exact, {}],
            ["in-y.exr", singleChannelExr(heights, SIZE, SIZE), exact, {}],
            ["in32.tif", await encodeTiff(heights, SIZE, SIZE, 1), exact, {}],
        ];
        for (const [name, bytes, fingerprint, extra] of inputs) {
            const summary = await bakeOne(write(name, bytes), `from-${name}`, extra);
            expect({ name, fingerprint: summary.fingerprint }).toEqual({ name, fingerprint });
        }
        // A GeoTIFF's pixel size is the cell size (2 m cells erode otherwise than 1 m ones).
        const geo = await bakeOne(write("geo.tif", await encodeTiff(heights, SIZE, SIZE, 2)), "from-geo.tif");
        expect(geo.report).toMatchObject({ cellSize: 2 });
        expect(geo.fingerprint).not.toBe(exact);
    });

    it("writes the heights and maps in each format, read back by an independent reader", async () => {
        const input = write("out-src.f32", f32(heights));
        const size = { size: { width: SIZE, depth: SIZE } };
        // RAW16, big-endian: the heights to 16 bits over their own range (the report's).
        const raw = await bakeOne(input, "raw/out.raw", { scale: size, output: { format: "raw16", endian: "big" } });
        const range = raw.report!.heightRange as { min: number; max: number };
        const view = new DataView(new Uint8Array(readFileSync(join(dir, "raw/out.raw"))).buffer);
        const baked = snapshotHeights("raw/out");
        const step = (range.max - range.min) / 65535;
        for (let i = 0; i < baked.length; i += 7) expect(Math.abs(range.min + view.getUint16(i * 2, false) * step - baked[i])).toBeLessThanOrEqual(step / 2 + 1e-4);
        expect(readdirSync(join(dir, "raw")).sort()).toEqual(["out.deposition.png", "out.drainageArea.png", "out.raw", "out.report.json", "out.snapshot", "out.water.png", "out.wear.png"]);
        // PNG16 (our encoder), read by fast-png: the heights over their range and a 16-bit map a file.
        const png = await bakeOne(input, "png/out.png", { scale: size, output: { format: "png16" } });
        const pngRange = png.report!.heightRange as { min: number; max: number };
        const pngImage = decodePng(readFileSync(join(dir, "png/out.png")));
        expect({ width: pngImage.width, depth: pngImage.height, bits: pngImage.depth, channels: pngImage.channels }).toEqual({ width: SIZE, depth: SIZE, bits: 16, channels: 1 });
        expect(Uint16Array.from(pngImage.data)).toEqual(heightsToSamples(snapshotHeights("png/out"), pngRange).samples);
        // A map scaled so its largest value is the largest sample.
        const wearPng = decodePng(readFileSync(join(dir, "png/out.wear.png")));
        expect({ bits: wearPng.depth, largest: Math.max(...Array.from(wearPng.data)) }).toEqual({ bits: 16, largest: 65535 });
        // EXR: float32 heights and one maps EXR (R, G, B, A: water, wear, deposition, drainage area).
        await bakeOne(input, "exr/out.exr", { scale: size, output: { format: "exr" } });
        const exrHeights = parseExr(new Uint8Array(readFileSync(join(dir, "exr/out.exr"))).buffer, 1015);
        const top = (data: ArrayLike<number>, channel: number, x: number, y: number) => data[((SIZE - 1 - y) * SIZE + x) * 4 + channel];
        const exrBaked = snapshotHeights("exr/out");
        for (let i = 0; i < exrBaked.length; i += 7) expect(top(exrHeights.data, 0, i % SIZE, Math.floor(i / SIZE))).toBe(exrBaked[i]);
        const maps = parseExr(new Uint8Array(readFileSync(join(dir, "exr/out.maps.exr"))).buffer, 1015);
        const snapshot = ErosionSnapshot.fromArrayBuffer(new Uint8Array(readFileSync(join(dir, "exr/out.snapshot"))).buffer);
        const drainage = snapshot.state.drainageArea;
        expect(Array.from({ length: SIZE * SIZE }, (_, i) => top(maps.data, 3, i % SIZE, Math.floor(i / SIZE)))).toEqual(Array.from(drainage, (value) => Math.fround(value)));
        expect(Array.from({ length: SIZE * SIZE }, (_, i) => top(maps.data, 1, i % SIZE, Math.floor(i / SIZE))).some((value) => value > 0)).toBe(true); // wear
        // TIFF: float32 heights with the cell size as the pixel size, and a float32 TIFF a map.
        await bakeOne(input, "tiff/out.tif", { scale: { ...size, cellSize: 1 }, output: { format: "tiff" } });
        const [tiffImage] = decodeTiff(readFileSync(join(dir, "tiff/out.tif")));
        expect(Float32Array.from(tiffImage.data)).toEqual(snapshotHeights("tiff/out"));
        const [drainageTiff] = decodeTiff(readFileSync(join(dir, "tiff/out.drainageArea.tif")));
        expect(Float32Array.from(drainageTiff.data)).toEqual(Float32Array.from(ErosionSnapshot.fromArrayBuffer(new Uint8Array(readFileSync(join(dir, "tiff/out.snapshot"))).buffer).state.drainageArea));
        expect(readdirSync(join(dir, "tiff")).sort()).toEqual(["out.deposition.tif", "out.drainageArea.tif", "out.report.json", "out.snapshot", "out.tif", "out.water.tif", "out.wear.tif"]);
    });

    it("writes what Unity's and Unreal's importers take, resampled to their sizes, with the dialog's numbers", async () => {
        const side = 40;
        const field = generateNoiseTerrain({ width: side, depth: side, relief: 20, seed: 8 });
        const input = write("engine.f32", f32(field));
        const unity = await bakeOne(input, "unity/out.raw", { scale: { size: { width: side, depth: side }, cellSize: 2 }, output: { preset: "unity" } });
        expect(readFileSync(join(dir, "unity/out.raw")).length).toBe(33 * 33 * 2); // 2^5 + 1, the nearest to 40
        const range = unity.report!.heightRange as { min: number; max: number };
        expect(unity.report!.engine).toMatchObject({ preset: "unity", width: 33, height: 33, byteOrder: "Windows", terrainSizeX: 78, terrainSizeZ: 78, terrainHeight: Math.round((range.max - range.min) * 1000) / 1000 });
        expect(unity.report!.importLines).toEqual([expect.stringContaining("Width 33, Height 33 (resampled from 40 x 40), Byte Order Windows"), expect.stringContaining("Terrain Size 78 x")]);
        // The corners are the baked terrain's, to 16 bits.
        const raw = new DataView(new Uint8Array(readFileSync(join(dir, "unity/out.raw"))).buffer);
        const baked = snapshotHeights("unity/out", 2);
        expect(Math.abs(range.min + (raw.getUint16(0, true) * (range.max - range.min)) / 65535 - baked[0])).toBeLessThan(0.01);
        const unreal = await bakeOne(input, "unreal/out.png", { scale: { size: { width: side, depth: side } }, output: { preset: "unreal" } });
        const unrealRange = unreal.report!.heightRange as { min: number; max: number };
        expect(unreal.report!.engine).toMatchObject({ preset: "unreal", resolution: "127 x 127", scaleZ: Math.round(((unrealRange.max - unrealRange.min) / 512) * 100 * 1000) / 1000 });
        expect(unreal.report!.engine).toMatchObject({ scaleX: Math.round((39 / 126) * 100 * 1000) / 1000 });
    });

    it("refuses bad files naming the file and what is wrong, and writes nothing", async () => {
        const cases: [string, Uint8Array | ArrayBuffer, Partial<Parameters<typeof bake>[0]>, RegExp][] = [
            ["short.raw", encodeRaw16(samples, "little").subarray(0, 1000), {}, /short\.raw: 1000 bytes is not a square of 16-bit samples; give its size with --size/],
            ["sized.r16", encodeRaw16(samples, "little"), { scale: { size: { width: 30, depth: 33 } } }, /sized\.r16: 2178 bytes, but 30 x 33 16-bit samples are 1980 bytes/],
            ["garbage.exr", new Uint8Array(200).fill(7), {}, /garbage\.exr: not an OpenEXR image the bake reads .*\(read as an OpenEXR heightmap\)/],
            ["cut.exr", (await encodeExr(SIZE, SIZE, [heights, heights, heights, heights])).subarray(0, 400), {}, /cut\.exr: .*\(read as an OpenEXR heightmap\)/],
            ["eight.tif", writeArrayBuffer(new Uint8Array(SIZE * SIZE), { width: SIZE, height: SIZE, ...METRE_PIXELS } as never), {}, /eight\.tif: its samples are 8-bit unsigned integers; the bake reads 16-bit unsigned or 32-bit float heights/],
            ["jp2.tif", withTiffCompression(new Uint8Array(writeArrayBuffer(samples, { width: SIZE, height: SIZE, ...METRE_PIXELS } as never)), 34712), {}, /jp2\.tif: its pixels do not decode \(compression 34712/],
            ["degrees.tif", writeArrayBuffer(Float32Array.from(heights), { width: SIZE, height: SIZE } as never), {}, /degrees\.tif: it is a geographic GeoTIFF: its pixels are .* degrees, not metres/],
        ];
        for (const [name, bytes, extra, message] of cases) {
            const out = `bad-${name}/out.png`;
            await expect(bakeOne(write(name, bytes), out, extra)).rejects.toThrow(message);
            expect(existsSync(join(dir, `bad-${name}`)) ? readdirSync(join(dir, `bad-${name}`)) : []).toEqual([]);
        }
        // A geographic GeoTIFF bakes once the cell size is given.
        expect((await bakeOne(join(dir, "degrees.tif"), "degrees-given/out.tif", { scale: { cellSize: 3 } })).report).toMatchObject({ cellSize: 3 });
        await expect(bakeOne(write("fmt.f32", f32(heights)), "bad-fmt/out.x", { scale: { size: { width: SIZE, depth: SIZE } }, output: { format: "jpeg" as never } })).rejects.toThrow('--format is "jpeg": it must be one of png16, raw16, exr, tiff, f32.');
        await expect(bakeOne(join(dir, "fmt.f32"), "bad-mix/out.x", { scale: { size: { width: SIZE, depth: SIZE } }, output: { format: "exr", preset: "unity" } })).rejects.toThrow("--unity writes raw16, but --format asks for exr");
    });
});

/** A TIFF with its Compression tag (259) set to `code`: a compression the reader does not decode. */
function withTiffCompression(bytes: Uint8Array, code: number): Uint8Array {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const little = view.getUint16(0) === 0x4949;
    const ifd = view.getUint32(4, little);
    const entries = view.getUint16(ifd, little);
    for (let k = 0; k < entries; k++) {
        const entry = ifd + 2 + k * 12;
        if (view.getUint16(entry, little) === 259) view.setUint16(entry + 8, code, little);
    }
    return bytes;
}
