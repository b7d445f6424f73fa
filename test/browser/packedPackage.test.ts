/**
 * The library's package as a user installs it: `npm pack`, install the tarball into a fresh app,
 * weigh it, import it from Node without a bundler, bundle a small scene with webpack and run it in
 * headless Chromium, and run the README's Use snippet, verbatim, in a scene with a PBR material.
 * The command-line package: packedCli.test.ts.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import webpack from "webpack";
import { erodeHeightfield } from "../../plugin/index.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { serveDirectories } from "../../scripts/lib/browser.js";
import { newBrowserPage } from "../helpers/browser.js";
import { directoryBytes, installProject, megabytes, pack, type PackedTarball } from "../helpers/packing.js";

const ROOT = process.cwd();
// Outside the repository: Node would otherwise resolve what the project lacks from the repository's node_modules.
const PROJECT = join(tmpdir(), "terrain-erosion-pack-project");
const OPTIONS = { patchSize: 32, hydraulic: { dropletsPerBatch: 96 } };
const reference = () => erodeHeightfield(generateNoiseTerrain({ width: 33, depth: 33, relief: 8, seed: 2 }), 33, 33, OPTIONS, 1).fingerprint;
/** What the bake command needs and a browser app must not install. */
const HEAVY = ["webgpu", "bullmq", "ioredis", "msgpackr-extract", "commander", "cli-progress", "geotiff", "three", "parse-exr"];

/** The README's first TypeScript snippet (under "## Use"): its import lines, and the rest. */
function readmeUseSnippet(): { imports: string; body: string } {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const block = /## Use\n\n```ts\n([\s\S]*?)```/.exec(readme);
    if (!block) throw new Error("README.md has no ```ts block under \"## Use\".");
    const lines = block[1].split("\n");
    return { imports: lines.filter((line) => line.startsWith("import ")).join("\n"), body: lines.filter((line) => !line.startsWith("import ")).join("\n") };
}

/** A page that runs `source` (bundled) and waits for its `window.result`. */
async function runPage(html: string): Promise<{ result: Record<string, unknown>; errors: string[] }> {
    const { server, origin } = await serveDirectories([join(PROJECT, "dist")]);
    const { page, errors, close } = await newBrowserPage();
    try {
        await page.goto(`${origin}/${html}`);
        await page.waitForFunction(() => (window as unknown as { result?: unknown }).result !== undefined, undefined, { timeout: 120000 });
        return { result: await page.evaluate(() => (window as unknown as { result: Record<string, unknown> }).result), errors };
    } finally {
        await close();
        server.close();
    }
}

describe("the packed library in a fresh app", () => {
    let tarball: PackedTarball;

    beforeAll(() => {
        // The tarball is what `npm pack` makes with its prepack (build:lib, build:umd) from the sources
        // as they are: `npm test` built this run's UMD bundle already (webpack --env mixed umd, the same
        // production build), and `npm run build` the library in CI, so only the builds whose stamps
        // (scripts/lib/buildStamp.mjs) say they are not current are run here.
        expect(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.prepack).toBe("npm run build:lib && npm run build:umd");
        const current = (dir: string, build: string) => {
            // The stamp's own check, and not a development build (npm test's UMD bundle is a production one).
            const script = `import { readFileSync } from "node:fs"; import { stampFresh } from "./scripts/lib/buildStamp.mjs";
                const fresh = stampFresh(process.cwd(), ${JSON.stringify(dir)}, ${JSON.stringify(build)});
                console.log(fresh && JSON.parse(readFileSync(${JSON.stringify(`${dir}/.build-inputs`)}, "utf8")).mode !== "development");`;
            return execFileSync("node", ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" }).trim() === "true";
        };
        const builds = [...(current("dist/esm", "lib") ? [] : ["build:lib"]), ...(current("dist/umd", "umd") ? [] : ["build:umd"])];
        tarball = pack(ROOT, join(ROOT, "test-results/pack"), builds);
        const core = JSON.parse(execFileSync("node", ["-p", "JSON.stringify(require('@babylonjs/core/package.json').version)"], { cwd: ROOT, encoding: "utf8" }));
        installProject(PROJECT, { "babylon-terrain-erosion": `file:${tarball.path}`, "@babylonjs/core": core });
    }, 600000);

    it("ships ESM with typings, the UMD bundle without its source map, the licence, and nothing of the tests, the sources or the bake", () => {
        const installed = join(PROJECT, "node_modules/babylon-terrain-erosion");
        const paths = tarball.files.map((file) => file.path);
        expect(paths).toEqual(expect.arrayContaining(["dist/esm/index.js", "dist/esm/index.d.ts", "dist/esm/advanced.js", "dist/esm/advanced.d.ts", "dist/umd/terrain-erosion.umd.js", "LICENSE", "README.md", "docs/simulation.md"]));
        expect(readFileSync(join(installed, "LICENSE"), "utf8")).toMatch(/^MIT License/);
        for (const unwanted of [/^test\//, /^plugin\//, /^dist\/esm\/bake\//, /^dist\/esm\/internal\./, /^dist\/esm\/generated\/tileThread/, /\.d\.ts\.map$/, /^docs\/images\//, /\.build-inputs$/, /^dist\/umd\/.*\.map$/]) {
            expect([String(unwanted), paths.filter((path) => unwanted.test(path))]).toEqual([String(unwanted), []]);
        }
        // The UMD bundle names no map (its map stays out of the package: 0.9 MB an ES-module game never loads).
        expect(readFileSync(join(installed, "dist/umd/terrain-erosion.umd.js"), "utf8")).not.toMatch(/sourceMappingURL/);
        // Every map shipped carries the sources it names (a map pointing to files the package lacks resolves to nothing).
        for (const map of paths.filter((path) => path.endsWith(".map"))) {
            const { sources, sourcesContent } = JSON.parse(readFileSync(join(installed, map), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
            expect([map, sources.filter((_, k) => typeof sourcesContent?.[k] !== "string")]).toEqual([map, []]);
        }
        // Every declaration an entry's declarations import is shipped (build:lib drops the ones no entry reaches).
        const declarations = new Set(paths.filter((path) => path.endsWith(".d.ts")));
        const missing = [...declarations].flatMap((path) =>
            [...readFileSync(join(installed, path), "utf8").matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)["'](\.{1,2}\/[^"']+)\.js["']/g)]
                .map((match) => posix.join(posix.dirname(path), `${match[1]}.d.ts`))
                .filter((target) => !declarations.has(target))
        );
        expect(missing).toEqual([]);
        const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
        expect([manifest.bin, manifest.dependencies, manifest.optionalDependencies]).toEqual([undefined, undefined, undefined]);
    });

    it("weighs under 3 MB unpacked, and installs nothing of the bake command into an app (figures printed)", () => {
        const modules = join(PROJECT, "node_modules");
        const figures = {
            packedBytes: tarball.size,
            unpackedBytes: tarball.unpackedSize,
            installedPackageBytes: directoryBytes(join(modules, "babylon-terrain-erosion")),
            appNodeModulesBytes: directoryBytes(modules),
            babylonCoreBytes: directoryBytes(join(modules, "@babylonjs/core")),
            installedPackages: readdirSync(modules).filter((name) => !name.startsWith(".")),
        };
        writeFileSync(join(ROOT, "test-results/package-weight.json"), JSON.stringify(figures, null, 2) + "\n");
        console.log(
            `babylon-terrain-erosion: ${megabytes(figures.packedBytes)} packed, ${megabytes(figures.unpackedBytes)} unpacked; ` +
                `an app with it and @babylonjs/core: node_modules ${megabytes(figures.appNodeModulesBytes)} (@babylonjs/core ${megabytes(figures.babylonCoreBytes)}); packages: ${figures.installedPackages.join(", ")}`
        );
        expect(figures.unpackedBytes).toBeLessThan(3e6);
        expect(figures.installedPackages.filter((name) => HEAVY.includes(name))).toEqual([]);
    });

    it("imports in Node without a bundler and erodes with the mesh-free entry point", () => {
        const script = `import { erodeHeightfield } from "babylon-terrain-erosion";
            import { generateNoiseTerrain } from "babylon-terrain-erosion/terrain";
            console.log(erodeHeightfield(generateNoiseTerrain({ width: 33, depth: 33, relief: 8, seed: 2 }), 33, 33, ${JSON.stringify(OPTIONS)}, 1).fingerprint);`;
        const output = execFileSync("node", ["--input-type=module", "-e", script], { cwd: PROJECT, encoding: "utf8" }).trim();
        expect(output).toBe(reference());
        // The material plugin, the physics colliders and the water surface come from their own entry points.
        const entries = `import { TerrainErosionMaterialPlugin } from "babylon-terrain-erosion/material";
            import { ErosionColliders } from "babylon-terrain-erosion/physics";
            import { TerrainWaterSurface } from "babylon-terrain-erosion/water";
            console.log(typeof TerrainErosionMaterialPlugin, typeof ErosionColliders, typeof TerrainWaterSurface);`;
        expect(execFileSync("node", ["--input-type=module", "-e", entries], { cwd: PROJECT, encoding: "utf8" }).trim()).toBe("function function function");
    });

    it("bundles with webpack: a scene erodes on WebGPU in headless Chromium, and the README's Use snippet runs as written with a PBR material", async () => {
        writeFileSync(
            join(PROJECT, "src/scene.js"),
            `import { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
            import { Scene } from "@babylonjs/core/scene.js";
            import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
            import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
            import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
            import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
            import { TerrainErosion } from "babylon-terrain-erosion";
            import { generateNoiseTerrain } from "babylon-terrain-erosion/terrain";
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
        // The snippet verbatim: its imports on top, the rest in an async function given the scene.
        // The scene holds a PBR material, whose textures keep it loading: Babylon defers the attach.
        const snippet = readmeUseSnippet();
        writeFileSync(
            join(PROJECT, "src/readme.js"),
            `import { Engine } from "@babylonjs/core/Engines/engine.js";
            import { Scene } from "@babylonjs/core/scene.js";
            import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
            import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
            import { PBRMaterial } from "@babylonjs/core/Materials/PBR/pbrMaterial.js";
            import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
${snippet.imports}
async function useSnippet(scene) {
${snippet.body}
return { ground, erosion, heights };
}
            (async () => {
                const canvas = document.createElement("canvas");
                document.body.appendChild(canvas);
                const engine = new Engine(canvas, true);
                const scene = new Scene(engine);
                new ArcRotateCamera("camera", -Math.PI / 2, 1, 300, Vector3.Zero(), scene);
                new HemisphericLight("sky", new Vector3(0, 1, 0), scene);
                const material = new PBRMaterial("terrain", scene);
                material.roughness = 1;
                const loading = scene.isLoading;
                engine.runRenderLoop(() => scene.render());
                const { ground, erosion, heights } = await useSnippet(scene);
                ground.material = material;
                window.result = { loading, backend: erosion.backend, cycles: erosion.cyclesCompleted, heights: heights.length, vertices: ground.getTotalVertices() };
            })().catch((error) => (window.result = { error: String(error) }));`
        );
        await new Promise<void>((resolve, reject) =>
            webpack(
                { mode: "development", devtool: false, context: PROJECT, entry: { bundle: "./src/scene.js", readme: "./src/readme.js" }, output: { path: join(PROJECT, "dist"), filename: "[name].js" }, resolve: { modules: [join(PROJECT, "node_modules")] }, performance: { hints: false } },
                (error, stats) => (error || stats?.hasErrors() ? reject(error ?? new Error(stats?.toString("errors-only"))) : resolve())
            )
        );
        writeFileSync(join(PROJECT, "dist/index.html"), `<!doctype html><html><body><script src="bundle.js"></script></body></html>`);
        writeFileSync(join(PROJECT, "dist/readme.html"), `<!doctype html><html><body><script src="readme.js"></script></body></html>`);
        // A scene that imports only the erosion component bundles neither the material plugin nor the physics colliders (nor Havok).
        const bundle = readFileSync(join(PROJECT, "dist/bundle.js"), "utf8");
        // (Code, not names: the component's comments mention the plugin.) Nor anything of the bake
        // command (a development bundle names every module's path).
        for (const absent of [/class TerrainErosionMaterialPlugin\b/, /class ErosionColliders\b/, /class PhysicsShapeHeightField\b/, /HavokPhysics\(/, /fn erosionApply/, ...HEAVY.map((name) => new RegExp(`node_modules/${name}/`)), /terrain-erosion bake/]) {
            expect([String(absent), absent.test(bundle)]).toEqual([String(absent), false]);
        }
        expect(bundle).toMatch(/class TerrainErosion\b/); // the check finds classes in this bundle
        expect(bundle).toMatch(/node_modules\/babylon-terrain-erosion\//); // and module paths
        const scene = await runPage("index.html");
        expect(scene).toEqual({ result: { backend: "webgpu", fingerprint: reference() }, errors: [] });
        const readme = await runPage("readme.html");
        // The scene was loading when the snippet added the behavior (the deferred attach), and the snippet ran through.
        expect(readme).toEqual({ result: { loading: true, backend: "cpu", cycles: 10, heights: 513 * 513, vertices: 513 * 513 }, errors: [] });
    });
});
