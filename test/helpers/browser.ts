/**
 * Headless Chromium for the browser tests: finds an installed Chromium or Chrome (never downloads
 * one), serves the built test pages on 127.0.0.1 (WebGPU needs a secure context) and collects
 * console errors. WebGPU runs on the SwiftShader adapter Chromium ships, so no GPU is needed.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

const ROOT = resolve(process.cwd());

/** Where the webpack `testpages` build puts the pages. */
export const PAGES_DIR = join(ROOT, "test-results/pages");

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable", "/opt/google/chrome/chrome", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium"];

/** Path of the Chromium or Chrome to drive: $CHROMIUM_PATH, else the first installed candidate. */
export function findChromium(): string {
    const fromEnv = process.env.CHROMIUM_PATH;
    if (fromEnv) {
        if (!existsSync(fromEnv)) {
            throw new Error(`CHROMIUM_PATH is ${fromEnv}, which does not exist.`);
        }
        return fromEnv;
    }
    const found = CANDIDATES.find((candidate) => existsSync(candidate));
    if (!found) {
        throw new Error(
            "The browser tests need Chromium or Chrome and found none. Install one (Debian/Ubuntu: `sudo apt-get install -y chromium`; macOS: install Google Chrome) " +
                `or set CHROMIUM_PATH to its executable. Looked in: ${CANDIDATES.join(", ")}.`
        );
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

/** Serves files from `directories` (first match wins) on 127.0.0.1 at a free port. */
export async function serveDirectories(directories: string[]): Promise<{ server: Server; origin: string }> {
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
                response.writeHead(200, { "Content-Type": MIME[extname(file)] ?? "application/octet-stream" });
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

/** A browser page open on a test page, with the console errors it printed. */
export interface OpenPage {
    page: Page;
    browser: Browser;
    origin: string;
    /** Console errors and uncaught exceptions so far. */
    errors: string[];
    close(): Promise<void>;
}

/**
 * Opens `name`.html from the built test pages (or any path under `extraDirectories`) and waits for
 * `window.pageReady`.
 */
export async function openTestPage(name: string, extraDirectories: string[] = []): Promise<OpenPage> {
    if (!existsSync(join(PAGES_DIR, `${name}.html`))) {
        throw new Error(`Test page ${name}.html is not built. Run \`npm run build:testpages\` (npm test does it for you).`);
    }
    const { server, origin } = await serveDirectories([PAGES_DIR, ...extraDirectories]);
    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    const errors: string[] = [];
    page.on("console", (message) => {
        if (message.type() === "error") {
            errors.push(message.text());
        }
    });
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(`${origin}/${name}.html`);
    await page.waitForFunction(() => (window as unknown as { pageReady?: boolean }).pageReady === true, undefined, { timeout: 60000 });
    return {
        page,
        browser,
        origin,
        errors,
        async close() {
            await browser.close();
            await new Promise<void>((done) => server.close(() => done()));
        },
    };
}
