/**
 * One headless Chromium per jest worker for the whole run: launched here (jest's globalSetup) as
 * Playwright browser servers, their endpoints handed to the workers in an environment variable;
 * each test file connects to its worker's browser and opens its pages in fresh contexts
 * (test/helpers/browser.ts). Launching a browser for every test file cost about 3 s each.
 * `browserServersTeardown.ts` closes them.
 */
import { existsSync } from "node:fs";
import { chromium, type BrowserServer } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "../../scripts/lib/browser"; // no extension: jest loads globalSetup with Node's require

/** The environment variable that carries the endpoints (a JSON array, one per worker). */
export const TEST_BROWSERS = "TERRAIN_EROSION_TEST_BROWSERS";

declare global {
    // eslint-disable-next-line no-var
    var __testBrowserServers: BrowserServer[] | undefined;
}

/** Chromium's SwiftShader Vulkan driver, where Dawn for Node (the `webgpu` package) finds an adapter without a GPU. */
export const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";

export default async function launchTestBrowsers(globalConfig: { maxWorkers: number }): Promise<void> {
    // Set here, before jest starts its workers: the Vulkan loader reads it from the process's own
    // environment, which a test file's `process.env` (jest's copy) never reaches.
    if (!process.env.VK_ICD_FILENAMES && existsSync(SWIFTSHADER_ICD)) process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
    if (process.env[TEST_BROWSERS]) return; // a nested jest run uses its parent's
    const executablePath = findChromium();
    const count = Math.max(1, globalConfig.maxWorkers);
    const servers = await Promise.all(Array.from({ length: count }, () => chromium.launchServer({ executablePath, args: CHROMIUM_ARGS, headless: true })));
    globalThis.__testBrowserServers = servers;
    process.env[TEST_BROWSERS] = JSON.stringify(servers.map((server) => server.wsEndpoint()));
}
