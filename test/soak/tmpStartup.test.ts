import { openTestPage } from "../helpers/browser.js";
import type { StartupFrames } from "../browser/pages/smoothFrames.js";
it("startup", async () => {
    for (let run = 0; run < 2; run++) {
        const browser = await openTestPage("smoothFrames", [], "?engine=webgpu", true);
        const start: StartupFrames = await browser.page.evaluate((request) => (window as unknown as { startupFrames(r: unknown): Promise<StartupFrames> }).startupFrames(request), { size: 513, budgetMs: 16 });
        const longest = [...start.intervals].sort((a, b) => b.ms - a.ms).slice(0, 8);
        console.log(`${start.backend}: ${start.phases}; ${start.intervals.length} frames; longest: ${longest.map(({ ms, phase }) => `${ms.toFixed(0)} (${phase})`).join(", ")}`);
        await browser.close();
    }
}, 900000);
