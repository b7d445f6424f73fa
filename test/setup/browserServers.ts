/**
 * One headless Chromium per jest worker for the whole run: launched here (jest's globalSetup) as
 * Playwright browser servers, their endpoints handed to the workers in an environment variable;
 * each test file connects to its worker's browser and opens its pages in fresh contexts
 * (test/helpers/browser.ts). Launching a browser for every test file cost about 3 s each.
 * `browserServersTeardown.ts` closes them.
 */
import { chromium, type BrowserServer } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "../../scripts/lib/browser"; // no extension: jest loads globalSetup with Node's require

/** The environment variable that carries the endpoints (a JSON array, one per worker). */
export const TEST_BROWSERS = "TERRAIN_EROSION_TEST_BROWSERS";

declare global {
    // eslint-disable-next-line no-var
    var __testBrowserServers: BrowserServer[] | undefined;
}

export default async function launchTestBrowsers(globalConfig: { maxWorkers: number }): Promise<void> {
    if (process.env[TEST_BROWSERS]) return; // a nested jest run uses its parent's
    const executablePath = findChromium();
    const count = Math.max(1, globalConfig.maxWorkers);
    const servers = await Promise.all(Array.from({ length: count }, () => chromium.launchServer({ executablePath, args: CHROMIUM_ARGS, headless: true })));
    globalThis.__testBrowserServers = servers;
    process.env[TEST_BROWSERS] = JSON.stringify(servers.map((server) => server.wsEndpoint()));
}
