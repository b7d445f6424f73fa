/**
 * `npm test` checks the system parts the suite needs before it builds anything: with one hidden
 * (the Vulkan loader, through the check's own search path) it stops at once, naming the Debian
 * package and the line that installs it.
 */
import { spawnSync } from "node:child_process";
import { describeMissing, missingPrerequisites } from "../../../scripts/lib/prerequisites.js";

describe("the test command's prerequisite check", () => {
    it("finds every part on this machine (CI installs them), so no test that needs one is ever skipped", () => {
        expect(missingPrerequisites()).toEqual([]);
    });

    it("stops `node scripts/test.mjs` at once when the Vulkan loader is hidden, naming libvulkan1 and the install line", () => {
        const started = performance.now();
        const run = spawnSync(process.execPath, ["scripts/test.mjs"], { encoding: "utf8", env: { ...process.env, TERRAIN_EROSION_LIBRARY_PATH: "/nonexistent-library-dir" } });
        expect(run.status).toBe(1);
        expect(run.stderr).toContain("the Vulkan loader (libvulkan.so.1) [Debian/Ubuntu package libvulkan1]");
        expect(run.stderr).toContain("sudo apt-get install -y libvulkan1\n");
        // Nothing was built or run: the generators and jest print to stdout.
        expect(run.stdout).toBe("");
        // "At once": a figure for the log, not a limit (the check is a few file lookups).
        console.log(`prerequisite check stopped the test command after ${(performance.now() - started).toFixed(0)} ms`);
    });

    it("names each missing part with its package, and one install line for them all", () => {
        const missing = missingPrerequisites({ env: { PATH: "/nonexistent", CHROMIUM_PATH: "/nonexistent/chromium", TERRAIN_EROSION_LIBRARY_PATH: "" }, platform: "linux", nodeVersion: "18.19.0" });
        // (Then the SwiftShader driver, from the chromium package, where this machine lacks it.)
        expect(missing.map((entry) => entry.debianPackage).slice(0, 4)).toEqual([null, "chromium", "redis-server", "libvulkan1"]);
        const message = describeMissing(missing);
        expect(message).toContain("Node.js 20 or newer (this is 18.19.0)");
        expect(message).toContain("CHROMIUM_PATH is /nonexistent/chromium, which does not exist");
        expect(message).toContain("sudo apt-get install -y chromium redis-server libvulkan1\n");
    });
});
