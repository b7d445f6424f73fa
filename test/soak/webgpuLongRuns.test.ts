/**
 * Soak on real WebGPU (headless Chromium, SwiftShader): the long versions of the resource and
 * long-run checks in test/soak/robustnessWebgpu.test.ts (`npm run test:soak`).
 */
import { openTestPage, type OpenPage } from "../helpers/browser.js";
import { checkAttachDetachMany, checkLongRun } from "../helpers/webgpuLongRuns.js";

describe("TerrainErosion long runs on WebGPU (soak)", () => {
    let browser: OpenPage;

    beforeAll(async () => {
        browser = await openTestPage("componentWebgpu");
    });

    afterAll(async () => {
        await browser?.close();
    });

    it("attached and detached a hundred times, leaves live GPU buffers and observers where they started", async () => {
        await checkAttachDetachMany(browser, 100);
    });

    it("100 cycles on 129^2: no wrap, heights within the initial range widened by 10% of the relief, mass balanced to the unit, equal to the CPU", async () => {
        await checkLongRun(browser, 129, 100);
        // About 90 s on SwiftShader with the machine to itself; past 120 s beside another suite.
    }, 600000);
});
