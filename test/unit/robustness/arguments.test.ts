/**
 * Bad method arguments and targets get clear errors before any work; nothing is half-done.
 */
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import { ErosionOptionError, ErosionSnapshot, ErosionTargetError, TerrainErosion } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { COUNTER_NAMES, noMasks } from "../../../plugin/advanced.js";
import { createGroundWithHeights, createNullScene } from "../../helpers/nullScene.js";

describe("method arguments", () => {
    let env: ReturnType<typeof createNullScene>;
    let erosion: TerrainErosion;

    beforeEach(async () => {
        env = createNullScene();
        const ground = createGroundWithHeights(env.scene, generateNoiseTerrain({ width: 17, depth: 17, relief: 5 }), 17, 17);
        erosion = new TerrainErosion({ patchSize: 8, autoStart: false, hydraulic: { dropletsPerBatch: 20 } });
        ground.addBehavior(erosion);
        await erosion.whenReady();
    });

    afterEach(() => env.dispose());

    it.each([NaN, -1, 1.5, Infinity, "2"])("runCycles(%p) is rejected and runs nothing", async (count) => {
        await expect(erosion.runCycles(count as number)).rejects.toThrow(/runCycles: count is .*: it must be a non-negative integer/);
        expect(erosion.cyclesCompleted).toBe(0);
    });

    it("setOption and setOptions validate path, value and type, and leave the options unchanged on error", () => {
        const before = JSON.stringify(erosion.options);
        expect(() => erosion.setOption("hydraulic.inertia", NaN)).toThrow(/"hydraulic.inertia" is NaN: it must be a number in \[0, 0.99\]/);
        expect(() => erosion.setOption("hydraulic.inertai", 0.2)).toThrow(/Did you mean "hydraulic.inertia"/);
        expect(() => erosion.setOptions(null as never)).toThrow(ErosionOptionError);
        expect(() => erosion.setOptions({ thermal: { neighbours: 6 as never } })).toThrow(/"thermal.neighbours" is 6: it must be 4 or 8/);
        expect(() => erosion.setOption("backend", "cpu")).toThrow(/cannot change while attached/);
        expect(JSON.stringify(erosion.options)).toBe(before);
    });

    it("restore() refuses a snapshot of another size; exportPng16() refuses an empty height range", async () => {
        const other = new ErosionSnapshot({ width: 3, depth: 3, cycle: 0, batch: 0, heights: new Int32Array(9), suspended: new Int32Array(9), drainageArea: new Int32Array(9), fillLevels: new Int32Array(9), masks: noMasks(), counters: new Float64Array(COUNTER_NAMES.length) }, erosion.options);
        await expect(erosion.history.restore(other)).rejects.toThrow(/the snapshot is 3 x 3 vertices but the ground is 17 x 17/);
        await expect(erosion.maps.exportPng16({ min: 5, max: 5 })).rejects.toThrow(/max > min/);
        expect(erosion.cyclesCompleted).toBe(0);
    });

    it("cannot attach after dispose, nor to a second ground while attached", () => {
        const other = CreateGround("other", { width: 4, height: 4, subdivisions: 4, updatable: true }, env.scene);
        expect(() => erosion.attach(other)).toThrow(/already attached to "ground"/);
        erosion.dispose();
        expect(() => erosion.attach(other)).toThrow(/after dispose/);
    });
});

describe("targets", () => {
    it("refuses a ground of fewer than 2 x 2 vertices", () => {
        const env = createNullScene();
        try {
            const ground = CreateGround("line", { width: 4, height: 4, subdivisionsX: 4, subdivisionsY: 4, updatable: true }, env.scene);
            // A grid of one row: what a ground whose vertex data was cut down would report.
            (ground as unknown as { _subdivisionsY: number })._subdivisionsY = 0;
            ground.setVerticesData("position", new Float32Array(5 * 3), true);
            expect(() => ground.addBehavior(new TerrainErosion())).toThrow(ErosionTargetError);
            expect(() => ground.addBehavior(new TerrainErosion())).toThrow(/5 x 1 vertices; erosion needs at least 2 x 2/);
        } finally {
            env.dispose();
        }
    });
});
