/**
 * The browser tests' pages: opens a built test page in headless Chromium (`scripts/lib/browser.ts`
 * finds it and serves the pages) and collects its console errors.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM_ARGS, findChromium, serveDirectories } from "../../scripts/lib/browser.js";

const ROOT = resolve(process.cwd());

/** Where the webpack `testpages` build puts the pages. */
export const PAGES_DIR = join(ROOT, "test-results/pages");

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
 * Opens `name`.html (with `query`, e.g. `?engine=webgl2`) from the built test pages (or any path
 * under `extraDirectories`) and waits for `window.pageReady`; `isolated` serves it cross-origin
 * isolated (SharedArrayBuffer available).
 */
export async function openTestPage(name: string, extraDirectories: string[] = [], query = "", isolated = false): Promise<OpenPage> {
    if (!existsSync(join(PAGES_DIR, `${name}.html`))) {
        throw new Error(`Test page ${name}.html is not built. Run \`npm run build:testpages\` (npm test does it for you).`);
    }
    const { server, origin } = await serveDirectories([PAGES_DIR, ...extraDirectories], isolated);
    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    const errors: string[] = [];
    page.on("console", (message) => {
        if (message.type() === "error") {
            errors.push(message.text());
        }
    });
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(`${origin}/${name}.html${query}`);
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
