/** Opening the built sample scene in headless Chromium, for the sample's browser tests. */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { serveDirectories } from "../../scripts/lib/browser.js";
import { newBrowserPage } from "./browser.js";

/** The sample build `npm test` found current (scripts/test.mjs): `npm run build`'s, or its own development build. */
const SAMPLE_DIR = join(process.cwd(), process.env.TERRAIN_EROSION_SAMPLE_DIR ?? "test-results/sample");
const PUBLIC_DIR = join(process.cwd(), "sample-scene/public");

/** What the sample shows about its erosion. */
export interface SampleState {
    backend: string | null;
    cycles: number;
    engine: string;
}

/** The sample open in a page, with the console errors it printed. */
export interface OpenSample {
    page: Page;
    errors: string[];
    close(): Promise<void>;
}

/**
 * Opens the sample (the build `npm test` found current) with `query` and waits for its
 * erosion's backend. Served cross-origin isolated, as the sample's dev server serves it.
 */
export async function openSample(query: string, viewport = { width: 640, height: 400 }): Promise<OpenSample> {
    const { server, origin } = await serveDirectories([SAMPLE_DIR, PUBLIC_DIR], true);
    const { page, errors, close } = await newBrowserPage(viewport);
    await page.goto(`${origin}/index.html${query}`);
    await page.waitForFunction(() => (window as unknown as { sample?: { erosion: { backend: string | null } } }).sample?.erosion.backend != null, undefined, { timeout: 90000 });
    return { page, errors, close: async () => { await close(); server.close(); } };
}

/** The sample's engine, backend and cycles. */
export function sampleState(page: Page): Promise<SampleState> {
    return page.evaluate(() => {
        const sample = (window as unknown as { sample: { erosion: { backend: string | null; cyclesCompleted: number }; engine: { isWebGPU: boolean } } }).sample;
        return { backend: sample.erosion.backend, cycles: sample.erosion.cyclesCompleted, engine: sample.engine.isWebGPU ? "webgpu" : "webgl2" };
    });
}
