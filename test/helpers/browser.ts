/**
 * The browser tests' pages, in the worker's shared headless Chromium (launched once per jest worker
 * by test/setup/browserServers.ts): each page in a fresh browser context, with the console errors
 * it printed. `scripts/lib/browser.ts` finds Chromium and serves the pages.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM_ARGS, findChromium, serveDirectories } from "../../scripts/lib/browser.js";
import { TEST_BROWSERS } from "../setup/browserServers.js";

const ROOT = resolve(process.cwd());

/** Where the webpack `testpages` build puts the pages. */
export const PAGES_DIR = join(ROOT, "test-results/pages");

/** A page in a fresh context of the worker's browser, with the console errors it printed. */
export interface BrowserPage {
    page: Page;
    context: BrowserContext;
    /** Console errors and uncaught exceptions so far. */
    errors: string[];
    /** Closes the context (the shared browser stays for the next test). */
    close(): Promise<void>;
}

type ConnectionHolder = { __testBrowserConnection?: Promise<Browser> };

/**
 * The jest worker's browser: a connection to the one test/setup/browserServers.ts launched for it
 * (kept on this test file's global, and closed after the file by test/setup/browserConnection.ts),
 * or, outside such a run, a browser of its own for this file.
 */
export function testBrowser(): Promise<Browser> {
    const holder = globalThis as ConnectionHolder;
    if (!holder.__testBrowserConnection) {
        const endpoints = JSON.parse(process.env[TEST_BROWSERS] ?? "[]") as string[];
        const worker = Math.max(1, Number(process.env.JEST_WORKER_ID ?? 1));
        holder.__testBrowserConnection = endpoints.length > 0 ? chromium.connect(endpoints[(worker - 1) % endpoints.length]) : chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
    }
    return holder.__testBrowserConnection;
}

/** A new page (in its own context, `viewport` CSS pixels) that collects its console errors and uncaught exceptions. */
export async function newBrowserPage(viewport = { width: 800, height: 600 }): Promise<BrowserPage> {
    const context = await (await testBrowser()).newContext({ viewport });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
        if (message.type() === "error") {
            errors.push(message.text());
        }
    });
    page.on("pageerror", (error) => errors.push(String(error)));
    return { page, context, errors, close: () => context.close() };
}

/** A browser page open on a test page, with the console errors it printed. */
export interface OpenPage extends BrowserPage {
    origin: string;
}

/**
 * Opens `name`.html (with `query`, e.g. `?engine=webgl2`) from the built test pages (or any path
 * under `extraDirectories`) and waits for `window.pageReady`; `isolated` serves it cross-origin
 * isolated (SharedArrayBuffer available).
 */
export async function openTestPage(name: string, extraDirectories: string[] = [], query = "", isolated = false): Promise<OpenPage> {
    if (!existsSync(join(PAGES_DIR, `${name}.html`))) {
        throw new Error(`Test page ${name}.html is not built. Run \`npm run build:testpages\` (npm test does it for you).`);
    }
    const { server, origin } = await serveDirectories([PAGES_DIR, ...extraDirectories], isolated);
    const opened = await newBrowserPage();
    await opened.page.goto(`${origin}/${name}.html${query}`);
    await opened.page.waitForFunction(() => (window as unknown as { pageReady?: boolean }).pageReady === true, undefined, { timeout: 60000 });
    return {
        ...opened,
        origin,
        async close() {
            await opened.close();
            await new Promise<void>((done) => server.close(() => done()));
        },
    };
}
