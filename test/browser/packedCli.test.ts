/**
 * The command-line package, `babylon-terrain-erosion-cli` (cli/), as a user installs it: `npm pack`
 * (its prepack bundles the command), install the tarball into a fresh project, bake with
 * `npx terrain-erosion bake` to the library's fingerprint, and reach the bake as functions.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeGray16Png, generateNoiseTerrain, heightsToSamples, samplesToHeights } from "../../plugin/terrain.js";
import { erodeHeightfield } from "../../plugin/index.js";
import { directoryBytes, installProject, megabytes, pack, type PackedTarball } from "../helpers/packing.js";

const ROOT = process.cwd();
// Outside the repository: Node would otherwise resolve what the project lacks from the repository's node_modules.
const PROJECT = join(tmpdir(), "terrain-erosion-pack-cli-project");
const OPTIONS = { patchSize: 32, hydraulic: { dropletsPerBatch: 96 } };

describe("the packed command-line package in a fresh project", () => {
    let tarball: PackedTarball;

    beforeAll(() => {
        tarball = pack(join(ROOT, "cli"), join(ROOT, "test-results/pack-cli"));
        // Without the optional Dawn for Node (132 MB; the GPU bake is bakeCli.test.ts's, from the sources).
        installProject(PROJECT, { "babylon-terrain-erosion-cli": `file:${tarball.path}` }, ["--omit=optional"]);
    }, 600000);

    it("is released at the library's version, with its licence, the command and the bake's declarations", () => {
        const installed = join(PROJECT, "node_modules/babylon-terrain-erosion-cli");
        const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
        expect(manifest.version).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
        expect(manifest.bin).toEqual({ "terrain-erosion": "./dist/cli.js" });
        expect(readFileSync(join(installed, "LICENSE"), "utf8")).toMatch(/^MIT License/);
        expect(readdirSync(join(installed, "dist/types/bake"))).toContain("index.d.ts");
        console.log(`babylon-terrain-erosion-cli: ${megabytes(tarball.size)} packed, ${megabytes(tarball.unpackedSize)} unpacked; its project's node_modules without Dawn: ${megabytes(directoryBytes(join(PROJECT, "node_modules")))}`);
    });

    it("runs the bake command after install: npx terrain-erosion bake, to the library's fingerprint", async () => {
        const range = { min: 0, max: 8 };
        const { samples } = heightsToSamples(generateNoiseTerrain({ width: 33, depth: 33, relief: 8, seed: 2 }), range);
        writeFileSync(join(PROJECT, "in.png"), await encodeGray16Png(samples, 33, 33));
        writeFileSync(join(PROJECT, "options.json"), JSON.stringify(OPTIONS));
        const output = execFileSync("npx", ["--no-install", "terrain-erosion", "bake", "in.png", "--cycles", "1", "--height-range", "0,8", "--options", "options.json", "--out", "out.png"], { cwd: PROJECT, encoding: "utf8" });
        expect(output).toContain(`fingerprint ${erodeHeightfield(samplesToHeights(samples, range), 33, 33, OPTIONS, 1).fingerprint}`);
        expect(readdirSync(PROJECT)).toEqual(expect.arrayContaining(["out.png", "out.snapshot", "out.report.json", "out.water.png"]));
        // The format libraries load from the install: the heights to a float EXR, then that EXR to a
        // float TIFF, each the same heights (0 cycles: the same fingerprint).
        const bakeTo = (args: string[]) => /fingerprint (\w+)/.exec(execFileSync("npx", ["--no-install", "terrain-erosion", "bake", ...args, "--cycles", "0"], { cwd: PROJECT, encoding: "utf8" }))?.[1];
        const start = bakeTo(["in.png", "--height-range", "0,8", "--format", "exr", "--out", "start.exr"]);
        expect(bakeTo(["start.exr", "--format", "tiff", "--out", "start.tif"])).toBe(start);
        expect(bakeTo(["start.tif", "--unity", "--out", "start.raw"])).toBe(start);
        expect(readdirSync(PROJECT)).toEqual(expect.arrayContaining(["start.exr", "start.maps.exr", "start.tif", "start.drainageArea.tif", "start.raw"]));
        // The queue worker loads BullMQ and ioredis from the install, and says clearly when there is no Redis.
        const worker = spawnSync("npx", ["--no-install", "terrain-erosion", "worker", "redis://127.0.0.1:1"], { cwd: PROJECT, encoding: "utf8" });
        expect(worker.stderr).toContain("cannot reach Redis (ECONNREFUSED)");
        expect(worker.status).toBe(1);
        // Without the optional Dawn for Node, --gpu says what to install.
        const gpu = spawnSync("npx", ["--no-install", "terrain-erosion", "bake", "in.png", "--cycles", "1", "--height-range", "0,8", "--gpu", "--out", "gpu.png"], { cwd: PROJECT, encoding: "utf8" });
        expect(gpu.stderr).toContain('--gpu needs the optional package "webgpu" (Dawn for Node)');
        expect(gpu.status).toBe(1);
    });

    it("gives the bake as functions to Node scripts", () => {
        const script = `import { bake, readBakeInput, BakeInputError } from "babylon-terrain-erosion-cli";
            console.log(typeof bake, typeof readBakeInput, typeof BakeInputError);`;
        expect(execFileSync("node", ["--input-type=module", "-e", script], { cwd: PROJECT, encoding: "utf8" }).trim()).toBe("function function function");
    });
});
