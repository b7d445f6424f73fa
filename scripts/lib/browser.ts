/**
 * Headless Chromium for the browser tests, the Chromium benchmarks and the README pictures: finds
 * an installed Chromium or Chrome (never downloads one), the flags that give it WebGPU on the
 * SwiftShader adapter it ships (no GPU needed), and a static server on 127.0.0.1 (WebGPU needs a
 * secure context). Shared by `test/`, `bench/` and `scripts/`, so it imports none of them.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { chromiumPath, describeMissing, missingPrerequisites } from "./prerequisites.js";

/** Path of the Chromium or Chrome to drive: $CHROMIUM_PATH, else the first installed candidate. */
export function findChromium(): string {
    const found = chromiumPath();
    if (!found) {
        throw new Error(process.env.CHROMIUM_PATH ? `CHROMIUM_PATH is ${process.env.CHROMIUM_PATH}, which does not exist.` : describeMissing(missingPrerequisites().filter((entry) => entry.debianPackage === "chromium")));
    }
    return found;
}

/** Flags that give headless Chromium WebGPU on SwiftShader and keep it off the network. */
export const CHROMIUM_ARGS = [
    "--no-sandbox",
    "--enable-unsafe-webgpu",
    "--enable-features=Vulkan",
    "--use-vulkan=swiftshader",
    "--use-webgpu-adapter=swiftshader",
    "--use-angle=swiftshader",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
];

const MIME: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".png": "image/png", ".json": "application/json", ".map": "application/json", ".wasm": "application/wasm", ".css": "text/css" };

/**
 * The headers that make a page cross-origin isolated, so it may use SharedArrayBuffer (the CPU
 * backend's worker pool then shares memory). The sample's dev server sends them too.
 */
export const ISOLATION_HEADERS = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };

/** Serves files from `directories` (first match wins) on 127.0.0.1 at a free port; `isolated` adds `ISOLATION_HEADERS`. */
export async function serveDirectories(directories: string[], isolated = false): Promise<{ server: Server; origin: string }> {
    const server = createServer((request, response) => {
        const path = normalize(decodeURIComponent((request.url ?? "/").split("?")[0])).replace(/^(\.\.[/\\])+/, "");
        if (path === "/favicon.ico") {
            response.writeHead(204);
            response.end();
            return;
        }
        for (const directory of directories) {
            const file = join(directory, path === "/" ? "index.html" : path);
            if (file.startsWith(directory) && existsSync(file) && statSync(file).isFile()) {
                response.writeHead(200, { "Content-Type": MIME[extname(file)] ?? "application/octet-stream", ...(isolated ? ISOLATION_HEADERS : {}) });
                response.end(readFileSync(file));
                return;
            }
        }
        response.writeHead(404);
        response.end("not found");
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
