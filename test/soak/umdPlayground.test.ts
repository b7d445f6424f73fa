/**
 * The UMD bundle as the Babylon Playground would use it: Babylon's own UMD build (the `babylonjs`
 * package) and ours loaded with plain script tags, eroding a ground through the globals.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { erodeHeightfield } from "../../plugin/index.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { serveDirectories } from "../../scripts/lib/browser.js";
import { newBrowserPage } from "../helpers/browser.js";

const PAGE_DIR = join(process.cwd(), "test-results/umd");

const PAGE = `<!doctype html>
<html><body><canvas id="renderCanvas" width="320" height="240"></canvas>
<script src="babylon.js"></script>
<script src="terrain-erosion.umd.js"></script>
<script>
(async () => {
    const engineKind = new URLSearchParams(location.search).get("engine");
    const canvas = document.getElementById("renderCanvas");
    let engine;
    if (engineKind === "webgpu") {
        engine = new BABYLON.WebGPUEngine(canvas);
        await engine.initAsync();
    } else {
        engine = new BABYLON.Engine(canvas, true);
    }
    const scene = new BABYLON.Scene(engine);
    const camera = new BABYLON.ArcRotateCamera("camera", -1.2, 1, 90, BABYLON.Vector3.Zero(), scene);
    new BABYLON.HemisphericLight("light", new BABYLON.Vector3(0, 1, 0), scene);
    const ground = BABYLON.MeshBuilder.CreateGround("ground", { width: 64, height: 64, subdivisions: 64, updatable: true }, scene);
    const heights = TERRAIN_EROSION.generateNoiseTerrain({ width: 65, depth: 65, relief: 12, seed: 5 });
    const positions = ground.getVerticesData(BABYLON.VertexBuffer.PositionKind);
    heights.forEach((h, i) => (positions[i * 3 + 1] = h));
    ground.updateVerticesData(BABYLON.VertexBuffer.PositionKind, positions);
    const erosion = new TERRAIN_EROSION.TerrainErosion({ patchSize: 32, hydraulic: { dropletsPerBatch: 128 }, maxCycles: 2 });
    ground.addBehavior(erosion);
    engine.runRenderLoop(() => scene.render());
    await erosion.whenReady();
    while (erosion.cyclesCompleted < 2 || erosion.isRunning) await new Promise((r) => setTimeout(r, 20));
    await erosion.whenIdle();
    // The material plugin and the colliders are in the UMD bundle too.
    const material = new BABYLON.StandardMaterial("terrain", scene);
    ground.material = material;
    const plugin = new TERRAIN_EROSION.TerrainErosionMaterialPlugin(material, erosion);
    await plugin.whenReady;
    await scene.whenReadyAsync();
    window.result = { backend: erosion.backend, cycles: erosion.cyclesCompleted, fingerprint: await erosion.fingerprint(), material: material.pluginManager.getPlugin("TerrainErosion").getClassName(), colliders: typeof TERRAIN_EROSION.ErosionColliders };
})().catch((error) => (window.result = { error: String(error && error.stack || error) }));
</script></body></html>`;

describe("the UMD bundle in a Playground-style page", () => {
    beforeAll(() => {
        mkdirSync(PAGE_DIR, { recursive: true });
        writeFileSync(join(PAGE_DIR, "index.html"), PAGE);
    });

    it.each([
        ["webgpu", "webgpu"],
        ["webgl2", "cpu"],
    ])("erodes a ground on %s through the BABYLON and TERRAIN_EROSION globals", async (engine, backend) => {
        const { server, origin } = await serveDirectories([PAGE_DIR, join(process.cwd(), "node_modules/babylonjs"), join(process.cwd(), "dist/umd")]);
        const { page, errors, close } = await newBrowserPage();
        try {
            await page.goto(`${origin}/index.html?engine=${engine}`);
            await page.waitForFunction(() => (window as unknown as { result?: unknown }).result !== undefined, undefined, { timeout: 120000 });
            const result = await page.evaluate(() => (window as unknown as { result: { backend?: string; cycles?: number; fingerprint?: string; material?: string; colliders?: string; error?: string } }).result);
            expect(result.error).toBeUndefined();
            expect(result.backend).toBe(backend);
            expect(result.cycles).toBe(2);
            const reference = erodeHeightfield(generateNoiseTerrain({ width: 65, depth: 65, relief: 12, seed: 5 }), 65, 65, { patchSize: 32, hydraulic: { dropletsPerBatch: 128 } }, 2);
            expect(result.fingerprint).toBe(reference.fingerprint);
            expect([result.material, result.colliders]).toEqual(["TerrainErosionMaterialPlugin", "function"]);
            expect(errors).toEqual([]);
        } finally {
            await close();
            server.close();
        }
    });
});
