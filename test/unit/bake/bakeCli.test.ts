/**
 * The `terrain-erosion` command itself, as a user runs it (a Node process): a GPU bake through Dawn
 * for Node (Chromium's SwiftShader stands in for the GPU) to the CPU's fingerprint, and Ctrl-C,
 * which writes a checkpoint that `--resume` continues to the uninterrupted fingerprint.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeGray16Png, generateNoiseTerrain, heightsToSamples, samplesToHeights } from "../../../plugin/terrain.js";
import { erodeHeightfield } from "../../../plugin/index.js";

const SWIFTSHADER = "/usr/lib/chromium/vk_swiftshader_icd.json";
const CLI = ["--import", "tsx", "cli/src/cli.ts"];

let dir: string;

/** Writes a PNG of `size`² noise over 0..40 m; returns its path and erodeHeightfield's fingerprint after `cycles` (computed when asked). */
async function heightmap(size: number, cycles: number): Promise<{ input: string; fingerprint: () => string }> {
    const range = { min: 0, max: 40 };
    const { samples } = heightsToSamples(generateNoiseTerrain({ width: size, depth: size, relief: 30, seed: 9 }), range);
    const input = join(dir, `in${size}.png`);
    writeFileSync(input, await encodeGray16Png(samples, size, size));
    return { input, fingerprint: () => erodeHeightfield(samplesToHeights(samples, range), size, size, {}, cycles).fingerprint };
}

beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "bake-cli-"));
});

describe("the terrain-erosion command", () => {
    it("bakes on a GPU through Dawn for Node to the CPU's fingerprint (needs the Vulkan loader, Debian's libvulkan1, and Chromium's SwiftShader)", async () => {
        // Never skipped: `npm test` checks for both before jest starts (scripts/lib/prerequisites.js).
        expect(existsSync(SWIFTSHADER)).toBe(true);
        const { input, fingerprint } = await heightmap(65, 2);
        const run = spawnSync(process.execPath, [...CLI, "bake", input, "--cycles", "2", "--height-range", "0,40", "--gpu", "--out", join(dir, "gpu/out.png")], { encoding: "utf8", env: { ...process.env, VK_ICD_FILENAMES: SWIFTSHADER } });
        expect(run.stderr).toMatch(/baking: cycle 2, \d+\/\d+ batches \(100%\)/); // plain lines, not a bar, off a terminal
        expect(run.stdout).toMatch(/on gpu, .*swiftshader/i);
        expect(run.stdout).toContain(`fingerprint ${fingerprint()}`);
        expect(run.status).toBe(0);
    });

    it.each([
        [2, true],
        [1, false],
    ])("writes a checkpoint on Ctrl-C with --workers %i (and resumes to the uninterrupted fingerprint: %s)", async (workers, resume) => {
        // One worker bakes in this process's thread: the signal handler must still get its turn.
        const { input, fingerprint } = await heightmap(257, 12);
        const out = join(dir, `resume-${workers}/out.png`);
        const args = [...CLI, "bake", input, "--cycles", "12", "--height-range", "0,40", "--workers", String(workers), "--out", out];
        const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
        let stderr = "";
        const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
        await new Promise<void>((resolve) =>
            child.stderr.on("data", (chunk) => {
                stderr += String(chunk);
                if (/cycle 2,/.test(stderr)) resolve();
            })
        );
        child.kill("SIGINT");
        expect(await exited).toBe(130);
        expect(stderr).toMatch(/Interrupted at cycle \d+: checkpoint .*out\.checkpoint/);
        expect(readdirSync(join(dir, `resume-${workers}`)).sort()).toEqual(["out.checkpoint", "out.checkpoint.json", "out.checkpoint.maps"]);
        if (!resume) return;
        const resumed = spawnSync(process.execPath, [...args, "--resume"], { encoding: "utf8" });
        expect(resumed.stdout).toContain(`fingerprint ${fingerprint()}`);
        expect(resumed.status).toBe(0);
        expect(readdirSync(join(dir, `resume-${workers}`))).not.toContain("out.checkpoint");
    });

    it("explains a bad flag and exits 1", () => {
        const run = spawnSync(process.execPath, [...CLI, "bake", join(dir, "missing.png"), "--cycles", "two"], { encoding: "utf8" });
        expect(run.stderr).toContain('terrain-erosion: --cycles is "two": it must be a whole number, 0 or more.');
        expect(run.status).toBe(1);
    });
});
