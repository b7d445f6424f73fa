/**
 * The package as a user installs it: `npm pack`, install the tarball into a fresh project, import it
 * from Node without a bundler, bundle a small scene that imports it with webpack, and run that scene
 * in headless Chromium.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import webpack from "webpack";
import { encodeGray16Png, erodeHeightfield, generateNoiseTerrain, heightsToSamples, samplesToHeights } from "../../plugin/index.js";
import { serveDirectories } from "../../scripts/lib/browser.js";
import { newBrowserPage } from "../helpers/browser.js";

const ROOT = process.cwd();
const PACK_DIR = join(ROOT, "test-results/pack");
const PROJECT = join(ROOT, "test-results/pack-project");
const OPTIONS = { patchSize: 32, hydraulic: { dropletsPerBatch: 96 } };
const reference = () => erodeHeightfield(generateNoiseTerrain({ width: 33, depth: 33, relief: 8, seed: 2 }), 33, 33, OPTIONS, 1).fingerprint;

function npm(args: string[], cwd: string): string {
    return execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

describe("the packed package in a fresh project", () => {
    beforeAll(() => {
        rmSync(PACK_DIR, { recursive: true, force: true });
        rmSync(PROJECT, { recursive: true, force: true });
        mkdirSync(PACK_DIR, { recursive: true });
        mkdirSync(join(PROJECT, "src"), { recursive: true });
        npm(["pack", "--pack-destination", PACK_DIR], ROOT);
        const tarball = readdirSync(PACK_DIR).find((name) => name.endsWith(".tgz"))!;
        const core = JSON.parse(execFileSync("node", ["-p", "JSON.stringify(require('@babylonjs/core/package.json').version)"], { cwd: ROOT, encoding: "utf8" }));
        writeFileSync(join(PROJECT, "package.json"), JSON.stringify({ name: "erosion-consumer", private: true, type: "module", dependencies: { "babylon-terrain-erosion": `file:${join(PACK_DIR, tarball)}`, "@babylonjs/core": core } }, null, 2));
        npm(["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], PROJECT);
    }, 600000);

    it("ships ESM with typings and the UMD bundle, and nothing of the sources' tests", () => {
        const installed = join(PROJECT, "node_modules/babylon-terrain-erosion");
        const files = readdirSync(join(installed, "dist/esm"));
        expect(files).toContain("index.js");
        expect(files).toContain("index.d.ts");
        expect(readdirSync(join(installed, "dist/umd"))).toContain("terrain-erosion.umd.js");
        expect(readdirSync(installed)).not.toContain("test");
    });

    it("imports in Node without a bundler and erodes with the mesh-free entry point", () => {
        const script = `import { erodeHeightfield, generateNoiseTerrain } from "babylon-terrain-erosion";
            console.log(erodeHeightfield(generateNoiseTerrain({ width: 33, depth: 33, relief: 8, seed: 2 }), 33, 33, ${JSON.stringify(OPTIONS)}, 1).fingerprint);`;
        const output = execFileSync("node", ["--input-type=module", "-e", script], { cwd: PROJECT, encoding: "utf8" }).trim();
        expect(output).toBe(reference());
        // The material plugin and the physics colliders come from their own entry points.
        const entries = `import { TerrainErosionMaterialPlugin } from "babylon-terrain-erosion/material";
            import { ErosionColliders } from "babylon-terrain-erosion/physics";
            console.log(typeof TerrainErosionMaterialPlugin, typeof ErosionColliders);`;
        expect(execFileSync("node", ["--input-type=module", "-e", entries], { cwd: PROJECT, encoding: "utf8" }).trim()).toBe("function function");
    });

    it("runs the bake command after install: npx terrain-erosion bake", async () => {
        const range = { min: 0, max: 8 };
        const { samples } = heightsToSamples(generateNoiseTerrain({ width: 33, depth: 33, relief: 8, seed: 2 }), range);
        writeFileSync(join(PROJECT, "in.png"), await encodeGray16Png(samples, 33, 33));
        writeFileSync(join(PROJECT, "options.json"), JSON.stringify(OPTIONS));
        const output = execFileSync("npx", ["--no-install", "terrain-erosion", "bake", "in.png", "--cycles", "1", "--height-range", "0,8", "--options", "options.json", "--out", "out.png"], { cwd: PROJECT, encoding: "utf8" });
        expect(output).toContain(`fingerprint ${erodeHeightfield(samplesToHeights(samples, range), 33, 33, OPTIONS, 1).fingerprint}`);
        expect(readdirSync(PROJECT)).toEqual(expect.arrayContaining(["out.png", "out.snapshot", "out.report.json", "out.water.png"]));
        // The queue worker loads BullMQ and ioredis from the install, and says clearly when there is no Redis.
        const worker = spawnSync("npx", ["--no-install", "terrain-erosion", "worker", "redis://127.0.0.1:1"], { cwd: PROJECT, encoding: "utf8" });
        expect(worker.stderr).toContain("cannot reach Redis (ECONNREFUSED)");
        expect(worker.status).toBe(1);
    });

    it("bundles with webpack and erodes a ground in headless Chromium", async () => {
        writeFileSync(
            join(PROJECT, "src/scene.js"),
            `import { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
            import { Scene } from "@babylonjs/core/scene.js";
            import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
            import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
            import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
            import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
            import { TerrainErosion, generateNoiseTerrain } from "babylon-terrain-erosion";
            (async () => {
                const canvas = document.createElement("canvas");
                document.body.appendChild(canvas);
                const engine = new WebGPUEngine(canvas);
                await engine.initAsync();
                const scene = new Scene(engine);
                new FreeCamera("camera", new Vector3(0, 30, -40), scene);
                const ground = CreateGround("ground", { width: 32, height: 32, subdivisions: 32, updatable: true }, scene);
                const positions = ground.getVerticesData(VertexBuffer.PositionKind);
                generateNoiseTerrain({ width: 33, depth: 33, relief: 8, seed: 2 }).forEach((h, i) => (positions[i * 3 + 1] = h));
                ground.updateVerticesData(VertexBuffer.PositionKind, positions);
                const erosion = new TerrainErosion({ ...${JSON.stringify(OPTIONS)}, autoStart: false });
                ground.addBehavior(erosion);
                engine.runRenderLoop(() => scene.render());
                await erosion.whenReady();
                await erosion.runCycles(1);
                window.result = { backend: erosion.backend, fingerprint: await erosion.fingerprint() };
            })().catch((error) => (window.result = { error: String(error) }));`
        );
        writeFileSync(join(PROJECT, "dist-index.html"), `<!doctype html><html><body><script src="bundle.js"></script></body></html>`);
        await new Promise<void>((resolve, reject) =>
            webpack({ mode: "development", devtool: false, context: PROJECT, entry: "./src/scene.js", output: { path: join(PROJECT, "dist"), filename: "bundle.js" }, resolve: { modules: [join(PROJECT, "node_modules")] }, performance: { hints: false } }, (error, stats) =>
                error || stats?.hasErrors() ? reject(error ?? new Error(stats?.toString("errors-only"))) : resolve()
            )
        );
        writeFileSync(join(PROJECT, "dist/index.html"), `<!doctype html><html><body><script src="bundle.js"></script></body></html>`);
        // A scene that imports only the erosion component bundles neither the material plugin nor the physics colliders (nor Havok).
        const bundle = readFileSync(join(PROJECT, "dist/bundle.js"), "utf8");
        // (Code, not names: the component's comments mention the plugin.)
        // Nor the bake command's optional dependencies (a development bundle names every module's path).
        for (const absent of [/class TerrainErosionMaterialPlugin\b/, /class ErosionColliders\b/, /class PhysicsShapeHeightField\b/, /HavokPhysics\(/, /fn erosionApply/, /node_modules\/commander\//, /node_modules\/cli-progress\//, /node_modules\/webgpu\//, /node_modules\/bullmq\//, /node_modules\/ioredis\//, /terrain-erosion bake/]) {
            expect([String(absent), absent.test(bundle)]).toEqual([String(absent), false]);
        }
        expect(bundle).toMatch(/class TerrainErosion\b/); // the check finds classes in this bundle
        expect(bundle).toMatch(/node_modules\/babylon-terrain-erosion\//); // and module paths
        const { server, origin } = await serveDirectories([join(PROJECT, "dist")]);
        const { page, errors, close } = await newBrowserPage();
        try {
            await page.goto(`${origin}/index.html`);
            await page.waitForFunction(() => (window as unknown as { result?: unknown }).result !== undefined, undefined, { timeout: 120000 });
            const result = await page.evaluate(() => (window as unknown as { result: { backend?: string; fingerprint?: string; error?: string } }).result);
            expect(result.error).toBeUndefined();
            expect(result.backend).toBe("webgpu");
            expect(result.fingerprint).toBe(reference());
            expect(errors).toEqual([]);
        } finally {
            await close();
            server.close();
        }
    });
});
