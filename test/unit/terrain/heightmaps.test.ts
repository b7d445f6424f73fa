/**
 * Real terrain in and out: the 16-bit loader reproduces a PNG's heights exactly; the exports
 * round-trip.
 */
import { readFileSync } from "node:fs";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { createGroundFromPng16, decodeGrayPng, encodeGray16Png, encodeHeightsPng16, generateNoiseTerrain, samplesToHeights } from "../../../plugin/terrain.js";
import { erodeHeightfield, heightsToFixed, TerrainErosion } from "../../../plugin/index.js";
import { createGroundWithHeights, createNullScene } from "../../helpers/nullScene.js";

const DEM = readFileSync("sample-scene/public/alps-montblanc.png");

describe("16-bit heightmaps", () => {
    let env: ReturnType<typeof createNullScene>;

    beforeEach(() => {
        env = createNullScene();
    });

    afterEach(() => env.dispose());

    it("decodes the Mont Blanc DEM's 16-bit samples (not 8-bit, not colour-managed)", async () => {
        const image = await decodeGrayPng(DEM);
        expect([image.width, image.height, image.bitDepth]).toEqual([647, 647, 16]);
        let min = 65535;
        let max = 0;
        const distinct = new Set<number>();
        for (const sample of image.samples) {
            min = Math.min(min, sample);
            max = Math.max(max, sample);
            distinct.add(sample);
        }
        expect(min).toBe(0);
        expect(max).toBe(65535);
        expect(distinct.size).toBeGreaterThan(5000); // far more levels than 8 bits could hold
    });

    it("builds a ground whose vertex heights are exactly the PNG's heights", async () => {
        const range = { min: 454, max: 4810 };
        const ground = await createGroundFromPng16("dem", DEM, { extent: { width: 60000, height: 60000 }, range }, env.scene);
        const image = await decodeGrayPng(DEM);
        const expected = samplesToHeights(image.samples, range);
        const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
        expect(ground.getTotalVertices()).toBe(647 * 647);
        for (let i = 0; i < expected.length; i++) {
            if (positions[i * 3 + 1] !== expected[i]) throw new Error(`vertex ${i}: ${positions[i * 3 + 1]} != ${expected[i]}`);
        }
        // Top row of the image is the far (+z) edge.
        expect(positions[2]).toBe(30000);
    });

    it("re-encodes samples losslessly", async () => {
        const samples = new Uint16Array(37 * 23).map((_, i) => (i * 2654435761) >>> 16);
        const decoded = await decodeGrayPng(await encodeGray16Png(samples, 37, 23));
        expect(Array.from(decoded.samples)).toEqual(Array.from(samples));
    });

    it("exports eroded heights as a 16-bit PNG within one 16-bit step of its range, from the component and the mesh-free entry point", async () => {
        const heights = generateNoiseTerrain({ width: 33, depth: 33, relief: 300, seed: 1 });
        const ground = createGroundWithHeights(env.scene, heights, 33, 33);
        const erosion = new TerrainErosion({ patchSize: 16, autoStart: false, hydraulic: { dropletsPerBatch: 100 } });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        await erosion.runCycles(1);
        const eroded = await erosion.maps.readHeights();
        for (const { png, range } of [await erosion.maps.exportPng16(), await encodeHeightsPng16(erodeHeightfield(heights, 33, 33, { patchSize: 16, hydraulic: { dropletsPerBatch: 100 } }, 1).heights, 33, 33)]) {
            const restored = samplesToHeights((await decodeGrayPng(png)).samples, range);
            const step = (range.max - range.min) / 65535;
            for (let i = 0; i < eroded.length; i++) {
                expect(Math.abs(restored[i] - eroded[i])).toBeLessThanOrEqual(step * 1.0001);
            }
        }
    });

    it("round-trips the fixed-point heights exactly through the raw exports", async () => {
        const heights = generateNoiseTerrain({ width: 33, depth: 33, relief: 200, seed: 6 });
        const ground = createGroundWithHeights(env.scene, heights, 33, 33);
        const erosion = new TerrainErosion({ patchSize: 16, autoStart: false, hydraulic: { dropletsPerBatch: 100 } });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        await erosion.runCycles(2);
        const fixed = await erosion.maps.exportFixedHeights();
        // Float32 metres hold every fixed-point height below 256 m exactly (24-bit mantissa).
        const raw = await erosion.maps.readHeights();
        expect(Array.from(heightsToFixed(raw))).toEqual(Array.from(fixed));
        // The fixed-point export is exact at any height.
        const bytes = new Uint8Array(fixed.buffer.slice(0));
        expect(Array.from(new Int32Array(bytes.buffer))).toEqual(Array.from(fixed));
    });
});
