/**
 * `terrain-erosion bake` as a function: the same terrain as erodeHeightfield on the CPU worker
 * pool and in tiles on local threads, outputs all or nothing, clear errors, a folder of tiles, and a checkpoint that resumes to
 * the uninterrupted fingerprint (the command itself, the GPU and Ctrl-C: bakeCli.test.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CpuErosionSimulation, erodeHeightfield, ErosionSnapshot, heightsToFixed, resolveOptions } from "../../../plugin/index.js";
import { decodeGrayPng, encodeGray16Png, generateNoiseTerrain, heightsToSamples, samplesToHeights } from "../../../plugin/terrain.js";
import { noMasks } from "../../../plugin/advanced.js";
import { bake } from "../../../plugin/internal.js";

const SIZE = 129;
const RANGE = { min: 0, max: 40 };
const OPTIONS = { patchSize: 32, hydraulic: { dropletsPerBatch: 128 }, rivers: { stepsPerBatch: 8 } };

let dir: string;
let input: string;
let optionsFile: string;
let reference: ReturnType<typeof erodeHeightfield>;

beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "bake-test-"));
    input = join(dir, "in.png");
    writeFileSync(input, await encodeGray16Png(heightsToSamples(generateNoiseTerrain({ width: SIZE, depth: SIZE, relief: 30, seed: 3 }), RANGE).samples, SIZE, SIZE));
    optionsFile = join(dir, "options.json");
    writeFileSync(optionsFile, JSON.stringify(OPTIONS));
    // What the browser gets: the PNG's samples over the range, in metres, on 1 m cells.
    const image = await decodeGrayPng(readFileSync(input));
    reference = erodeHeightfield(samplesToHeights(image.samples, RANGE), SIZE, SIZE, OPTIONS, 2, 1);
});

describe("terrain-erosion bake", () => {
    it("bakes a PNG on two CPU workers to erodeHeightfield's terrain, with maps, a snapshot and a report", async () => {
        const out = join(dir, "cpu/out.png");
        const summary = await bake({ input, out, cycles: 2, optionsFile, scale: { heightRange: RANGE }, workers: 2 });
        expect(summary.fingerprint).toBe(reference.fingerprint);
        const snapshot = ErosionSnapshot.fromArrayBuffer(new Uint8Array(readFileSync(join(dir, "cpu/out.snapshot"))).buffer);
        expect(snapshot.fingerprint).toBe(reference.fingerprint);
        expect(snapshot.state.heights).toEqual(reference.fixedHeights);
        const report = JSON.parse(readFileSync(join(dir, "cpu/out.report.json"), "utf8"));
        expect(report).toMatchObject({ cycles: 2, fingerprint: reference.fingerprint, device: "cpu, 2 workers, shared memory", heightRange: RANGE, counters: reference.counters });
        expect(report.peakResidentMB).toBeGreaterThan(0);
        expect(readdirSync(join(dir, "cpu")).sort()).toEqual(["out.deposition.png", "out.drainageArea.png", "out.png", "out.report.json", "out.snapshot", "out.water.png", "out.wear.png"]);
        // The heights PNG is the eroded heights to 16 bits over the input's range.
        const eroded = await decodeGrayPng(readFileSync(out));
        const expected = heightsToSamples(reference.heights, RANGE).samples;
        expect(eroded.samples).toEqual(expected);
    });

    it("bakes in tiles on this machine's threads (--tiles) to the same terrain, maps and report, and resumes in tiles", async () => {
        const out = join(dir, "tiled/out.png");
        const summary = await bake({ input, out, cycles: 2, optionsFile, scale: { heightRange: RANGE }, workers: 2, tiles: 3 });
        expect(summary.fingerprint).toBe(reference.fingerprint);
        const report = JSON.parse(readFileSync(join(dir, "tiled/out.report.json"), "utf8"));
        expect(report).toMatchObject({ device: "cpu tiles, 2 threads, 3x3 tiles, rivers in windows of rows on the coordinator", counters: reference.counters });
        expect(report.tiles.jobs).toBeGreaterThan(9);
        expect(readFileSync(join(dir, "tiled/out.wear.png"))).toEqual(readFileSync(join(dir, "cpu/out.wear.png")));
        await expect(bake({ input, out: join(dir, "tiled-bad/out.png"), cycles: 1, tiles: 65 })).rejects.toThrow("--tiles is 65: it must be a whole number of tiles per side from 1 to 64.");
        // Stopped in tiles, resumed in tiles: the uninterrupted fingerprint, the maps included.
        let frames = 0;
        const resumeOut = join(dir, "tiled-resume/out.png");
        const stopped = await bake({ input, out: resumeOut, cycles: 2, optionsFile, scale: { heightRange: RANGE }, workers: 2, tiles: 3, shouldStop: () => ++frames === 7 });
        expect(stopped.checkpoint).not.toBeNull();
        const resumed = await bake({ input, out: resumeOut, cycles: 2, optionsFile, scale: { heightRange: RANGE }, workers: 2, tiles: 3, resume: true });
        expect(resumed.fingerprint).toBe(reference.fingerprint);
        expect(readFileSync(join(dir, "tiled-resume/out.wear.png"))).toEqual(readFileSync(join(dir, "cpu/out.wear.png")));
    });

    it("bakes a folder of tiles to the whole field's terrain, and writes the same tiles", async () => {
        const tiles = join(dir, "tiles");
        const heights = generateNoiseTerrain({ width: 65, depth: 49, relief: 30, seed: 4 });
        const names = [["a.f32", "b.f32"], ["c.f32", "d.f32"]];
        const columns = [33, 33];
        const rows = [25, 25];
        mkdirSync(tiles);
        for (let r = 0; r < 2; r++) {
            for (let c = 0; c < 2; c++) {
                const tile = new Float32Array(columns[c] * rows[r]);
                for (let y = 0; y < rows[r]; y++) for (let x = 0; x < columns[c]; x++) tile[y * columns[c] + x] = heights[(r * 24 + y) * 65 + c * 32 + x];
                writeFileSync(join(tiles, names[r][c]), new Uint8Array(tile.buffer));
            }
        }
        writeFileSync(join(tiles, "manifest.json"), JSON.stringify({ tiles: names, columns, rows, cellSize: 2 }));
        const summary = await bake({ input: tiles, out: join(dir, "tiles-out"), cycles: 1, optionsFile, workers: 2 });
        expect(summary.fingerprint).toBe(erodeHeightfield(heights, 65, 49, OPTIONS, 1, 2).fingerprint);
        expect(readdirSync(join(dir, "tiles-out")).sort()).toEqual(["a.f32", "b.f32", "c.f32", "d.f32", "manifest.json"]);
    });

    it("bakes rock and soil with a hardness map and a soil map (smaller PNGs, sampled at the vertices) and writes the materials' maps", async () => {
        const materialsOptions = join(dir, "materials.json");
        const options = { ...OPTIONS, materials: { enabled: true, hardness: 2, initialSoil: 0.1, hardnessMapScale: 8, strataThickness: 4, strataShare: 0.5 } };
        writeFileSync(materialsOptions, JSON.stringify(options));
        const mapFile = join(dir, "hardness.png");
        const MAP = 33;
        writeFileSync(mapFile, await encodeGray16Png(Uint16Array.from({ length: MAP * MAP }, (_, i) => (i % MAP) * 2047), MAP, MAP));
        const out = join(dir, "materials/out.png");
        await expect(bake({ input, out, cycles: 1, optionsFile, hardnessMap: mapFile, scale: { heightRange: RANGE } })).rejects.toThrow("--hardness-map: the options leave the materials off");
        // The soil map: the starting soil in the north half only.
        const soilFile = join(dir, "soil.png");
        writeFileSync(soilFile, await encodeGray16Png(Uint16Array.from({ length: MAP * MAP }, (_, i) => (i < (MAP * MAP) / 2 ? 65535 : 0)), MAP, MAP));
        await expect(bake({ input, out, cycles: 1, optionsFile, soilMap: soilFile, scale: { heightRange: RANGE } })).rejects.toThrow("--soil-map: the options leave the materials off");
        const summary = await bake({ input, out, cycles: 1, optionsFile: materialsOptions, hardnessMap: mapFile, soilMap: soilFile, scale: { heightRange: RANGE }, workers: 1 });
        const snapshot = ErosionSnapshot.fromArrayBuffer(new Uint8Array(readFileSync(join(dir, "materials/out.snapshot"))).buffer);
        const map = snapshot.state.masks.hardness!;
        const soilMap = snapshot.state.masks.soil!;
        expect([soilMap[0], soilMap[SIZE * SIZE - 1]]).toEqual([65536, 0]);
        // Column x reads the map's column round(x x 32 / 128): 2047 / 65535 of 1 a column.
        for (const x of [0, 5, 64, 127, 128]) expect(Math.abs(map[7 * SIZE + x] - Math.round((Math.round((x * 32) / 128) * 2047 * 65536) / 65535))).toBeLessThanOrEqual(1);
        const image = await decodeGrayPng(readFileSync(input));
        const simulation = new CpuErosionSimulation(SIZE, SIZE, heightsToFixed(samplesToHeights(image.samples, RANGE)), resolveOptions(options));
        simulation.setMasks({ ...noMasks(), hardness: map, soil: soilMap });
        simulation.runCycles(1);
        expect(summary.fingerprint).toBe(simulation.fingerprint());
        expect(readdirSync(join(dir, "materials")).filter((name) => /exposedLayer|rockHardness|soil/.test(name)).sort()).toEqual(["out.exposedLayer.png", "out.rockHardness.png", "out.soil.png"]);
        const report = JSON.parse(readFileSync(join(dir, "materials/out.report.json"), "utf8"));
        expect(report.mapsValuePerSampleStep.rockHardness).toBeGreaterThan(0);
    });

    it("names the bad file, the bad option and the unwritable output, and leaves no partial output", async () => {
        const notPng = join(dir, "bad.png");
        writeFileSync(notPng, "not a png");
        const out = join(dir, "bad-out/out.png");
        await expect(bake({ input: notPng, out, cycles: 1 })).rejects.toThrow(`${notPng}: not a 16-bit grayscale PNG heightmap`);
        // A reversed height range, and a file in no format the bake reads, each say so.
        await expect(bake({ input, out, cycles: 1, scale: { heightRange: { min: 4810, max: 454 } } })).rejects.toThrow(`${input}: the height range is 4810,454 (--height-range, or the manifest's heightRange): it must be two finite heights in metres, the one for sample 0 below the one for sample 65535 (for example --height-range 454,4810).`);
        const jpeg = join(dir, "heights.jpg");
        writeFileSync(jpeg, "not a heightmap");
        await expect(bake({ input: jpeg, out, cycles: 1 })).rejects.toThrow(`${jpeg}: not a heightmap the bake reads. It reads a 16-bit grayscale PNG (.png), RAW16 (.raw or .r16, with --endian and, unless square, --size), a float32 OpenEXR (.exr), a 16-bit or float32 TIFF or GeoTIFF (.tif, .tiff), raw little-endian float32 heights in metres (.f32, with --size WIDTHxDEPTH) or a folder of tiles with a manifest.json.`);
        const badOptions = join(dir, "bad-options.json");
        writeFileSync(badOptions, JSON.stringify({ hydraulic: { inertia: 5 } }));
        await expect(bake({ input, out, cycles: 1, optionsFile: badOptions })).rejects.toThrow(new RegExp(`^${badOptions}: .*hydraulic\\.inertia.*0\\.99`));
        const blocked = join(dir, "a-file");
        writeFileSync(blocked, "");
        await expect(bake({ input, out: join(blocked, "out.png"), cycles: 1 })).rejects.toThrow(new RegExp(`^${join(blocked, "out.png")}: cannot write there \\((EEXIST|ENOTDIR)\\)`));
        expect(existsSync(join(dir, "bad-out")) ? readdirSync(join(dir, "bad-out")) : []).toEqual([]);
    });

    it.each([1, 2])("stops at a shouldStop timer on %i worker(s): the event loop turns between frames", async (workers) => {
        // One worker runs in this thread and settles its frames in microtasks: before the fix the
        // timer never fired and all 40 cycles ran (issue 34's Ctrl-C with --workers 1).
        let stop = false;
        const timer = setTimeout(() => (stop = true), 200);
        try {
            const stopped = await bake({ input, out: join(dir, `timer-${workers}/out.png`), cycles: 40, optionsFile, scale: { heightRange: RANGE }, workers, shouldStop: () => stop });
            expect(stopped.checkpoint).toBe(join(dir, `timer-${workers}/out.checkpoint`));
            expect(stopped.cycles).toBeLessThan(40);
        } finally {
            clearTimeout(timer);
        }
    });

    it("stops with a checkpoint and resumes to the uninterrupted fingerprint, maps included", async () => {
        const out = join(dir, "resume/out.png");
        let frames = 0;
        const stopped = await bake({ input, out, cycles: 2, optionsFile, scale: { heightRange: RANGE }, workers: 2, shouldStop: () => ++frames === 5 });
        expect(stopped.checkpoint).toBe(join(dir, "resume/out.checkpoint"));
        expect(stopped.cycles).toBe(0);
        expect(readdirSync(join(dir, "resume")).sort()).toEqual(["out.checkpoint", "out.checkpoint.json", "out.checkpoint.maps"]);
        const resumed = await bake({ input, out, cycles: 2, optionsFile, scale: { heightRange: RANGE }, workers: 2, resume: true });
        expect(resumed.fingerprint).toBe(reference.fingerprint);
        expect(readFileSync(join(dir, "resume/out.wear.png"))).toEqual(readFileSync(join(dir, "cpu/out.wear.png")));
        expect(readdirSync(join(dir, "resume"))).not.toContain("out.checkpoint");
    });
});
