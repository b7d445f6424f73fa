// What `npm test` needs from the system beyond `npm install`, checked before anything is built, so
// a missing package stops the run at once with the line that installs it, not as a failing
// assertion minutes into the suite. Plain Node (no TypeScript): `scripts/test.mjs` runs it first.
// The list of system packages is written once, here; the README's set-up line names the same.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Where the browser tests, the Chromium benchmarks and the README pictures look for Chromium or Chrome (after $CHROMIUM_PATH). */
export const CHROMIUM_CANDIDATES = [
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/opt/google/chrome/chrome",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

/** Chromium's SwiftShader Vulkan driver (Debian's chromium package): Dawn for Node runs WGSL on it in the bake's GPU test and the benchmarks. */
export const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";

/** The Debian/Ubuntu packages the whole suite needs, in the README's order. */
export const DEBIAN_PACKAGES = ["chromium", "redis-server", "libvulkan1"];

/** Directories searched for shared libraries when `ldconfig` cannot tell (and always, after it). */
const LIBRARY_DIRECTORIES = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib"];

/**
 * Where this check looks for shared libraries: `$TERRAIN_EROSION_LIBRARY_PATH` (directories, the
 * only place looked in when set: it lets a test hide a library), else `ldconfig`'s cache, then
 * `$LD_LIBRARY_PATH` and the usual directories.
 */
function libraryFound(file, env) {
    if (env.TERRAIN_EROSION_LIBRARY_PATH !== undefined) {
        return env.TERRAIN_EROSION_LIBRARY_PATH.split(delimiter).some((directory) => directory && existsSync(join(directory, file)));
    }
    try {
        const cache = execFileSync("ldconfig", ["-p"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], env: { ...env, PATH: `${env.PATH ?? ""}${delimiter}/sbin${delimiter}/usr/sbin` } });
        if (cache.split("\n").some((line) => line.trim().startsWith(`${file} `))) return true;
    } catch {
        // no ldconfig (a container without it): the directories below decide
    }
    const directories = [...(env.LD_LIBRARY_PATH ?? "").split(delimiter).filter(Boolean), ...LIBRARY_DIRECTORIES];
    return directories.some((directory) => existsSync(join(directory, file)));
}

/** True when `command` runs from $PATH. */
function commandFound(command, env) {
    return (env.PATH ?? "").split(delimiter).some((directory) => directory && existsSync(join(directory, command)));
}

/** The Chromium or Chrome the browser tests drive, or null: $CHROMIUM_PATH when set, else the first candidate installed. */
export function chromiumPath(env = process.env) {
    if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
    return CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate)) ?? null;
}

/**
 * What the suite needs and this machine lacks: one entry per missing part, with the Debian package
 * that provides it and what needs it. Empty when everything is there.
 * @param {{ env?: NodeJS.ProcessEnv, platform?: string, nodeVersion?: string }} [where]
 * @returns {{ part: string, debianPackage: string | null, neededBy: string }[]}
 */
export function missingPrerequisites({ env = process.env, platform = process.platform, nodeVersion = process.versions.node } = {}) {
    const missing = [];
    if (Number(nodeVersion.split(".")[0]) < 20) {
        missing.push({ part: `Node.js 20 or newer (this is ${nodeVersion})`, debianPackage: null, neededBy: "everything (package.json engines)" });
    }
    if (!chromiumPath(env)) {
        const where = env.CHROMIUM_PATH ? `CHROMIUM_PATH is ${env.CHROMIUM_PATH}, which does not exist` : `looked in ${CHROMIUM_CANDIDATES.join(", ")}; or set CHROMIUM_PATH`;
        missing.push({ part: `Chromium or Chrome (${where})`, debianPackage: "chromium", neededBy: "the browser tests (WebGPU on its SwiftShader)" });
    }
    if (!commandFound("redis-server", env)) {
        missing.push({ part: "redis-server on the PATH", debianPackage: "redis-server", neededBy: "the queued bake's tests, which start one on a free local port" });
    }
    if (platform === "linux") {
        if (!libraryFound("libvulkan.so.1", env)) {
            missing.push({ part: "the Vulkan loader (libvulkan.so.1)", debianPackage: "libvulkan1", neededBy: "the bake command's GPU test, which runs Dawn for Node on SwiftShader" });
        }
        if (!existsSync(SWIFTSHADER_ICD)) {
            missing.push({ part: `Chromium's SwiftShader Vulkan driver (${SWIFTSHADER_ICD})`, debianPackage: "chromium", neededBy: "the bake command's GPU test (Debian's chromium package ships it)" });
        }
    }
    return missing;
}

/** The message for `missing` (non-empty): each part, what needs it, and the line that installs the packages. */
export function describeMissing(missing) {
    const packages = [...new Set(missing.map((entry) => entry.debianPackage).filter(Boolean))];
    const lines = ["npm test needs parts of the system that are missing:", ...missing.map((entry) => `  - ${entry.part}${entry.debianPackage ? ` [Debian/Ubuntu package ${entry.debianPackage}]` : ""}: for ${entry.neededBy}`)];
    if (packages.length > 0) {
        lines.push("Install them on Debian or Ubuntu with:", `  sudo apt-get install -y ${packages.join(" ")}`);
        lines.push(`(The whole suite needs: sudo apt-get install -y ${DEBIAN_PACKAGES.join(" ")}; see README.md.)`);
    }
    return lines.join("\n");
}

// `node scripts/lib/prerequisites.js --missing-packages` prints the Debian packages to install
// (space-separated, nothing when none): `.ci/run` installs them, from this one list.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href && process.argv.includes("--missing-packages")) {
    const packages = new Set(missingPrerequisites().map((entry) => entry.debianPackage).filter(Boolean));
    process.stdout.write([...packages].join(" "));
}
