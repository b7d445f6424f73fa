/**
 * Ground edits made while erosion runs, at the budgets and on the backend the main suite leaves out
 * (test/browser/groundEdits.test.ts runs WebGPU at one batch a frame): WebGPU at 30 ms a frame and
 * the CPU backend's worker, each against the CPU reference at the stamps their handles report.
 */
import { openTestPage, type OpenPage } from "../helpers/browser.js";
import { checkStampedRun } from "../helpers/groundEditRuns.js";

describe("ground edits while erosion runs, other budgets and the CPU backend", () => {
    let browser: OpenPage;
    beforeAll(async () => {
        browser = await openTestPage("groundEdits", [], "?engine=webgpu");
    }, 120000);
    afterAll(() => browser?.close());

    it.each([
        ["WebGPU at 30 ms a frame", { backend: "webgpu" as const, frameBudgetMs: 30, cycles: 3 }],
        ["the CPU backend at one batch a frame", { backend: "cpu" as const, frameBudgetMs: 0.05, cycles: 3 }],
    ])("%s gives the reference's terrain at the stamps, and after a snapshot round trip", async (_name, request) => {
        await checkStampedRun(browser, request);
        expect(browser.errors).toEqual([]);
    }, 300000);
});
