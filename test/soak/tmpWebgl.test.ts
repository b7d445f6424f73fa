import { openTestPage } from "../helpers/browser.js";
import type { SmoothCycle } from "../browser/pages/smoothFrames.js";

it("webgl2 main thread at 4 ms", async () => {
    const browser = await openTestPage("smoothFrames", [], "", true);
    try {
        const cycle: SmoothCycle = await browser.page.evaluate((request) => (window as unknown as { smoothCycle(r: unknown): Promise<SmoothCycle> }).smoothCycle(request), { size: 513, budgetMs: 4, options: {}, timeoutMs: 900000 });
        const rows = cycle.mainThreadMs.map((ms, k) => [ms, cycle.mainThreadKinds[k]] as const).sort((a, b) => b[0] - a[0]);
        const sorted = [...cycle.mainThreadMs].sort((a, b) => a - b);
        console.log(`${cycle.backend} frames ${cycle.mainThreadMs.length} median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} p95 ${sorted[Math.floor(sorted.length * 0.95)].toFixed(2)}\n` + rows.slice(0, 30).map(([ms, kind]) => `${ms.toFixed(2)} ${kind}`).join("\n"));
    } finally {
        await browser.close();
    }
}, 1200000);
