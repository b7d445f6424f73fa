/**
 * Soak: the long runs of test/unit/robustness/extremes.test.ts at 10 000 cycles (`npm run test:soak`;
 * `.ci/run` runs it after the main suite).
 */
import { checkAggressiveRun, checkHeaviestRain, checkRiversAtTheirLimits } from "../helpers/longRuns.js";

describe("long runs (soak)", () => {
    it("10 000 cycles on 33 x 33 with aggressive options (droplets, rivers at the largest K, thermal) stay bounded and balanced", () => {
        checkAggressiveRun(10000);
    });

    it("10 000 cycles on 65 x 65 of the river operator with the largest erosion and uplift: finite, in range, mass (with uplift) exact", () => {
        checkRiversAtTheirLimits(10000);
    });

    it("takes the heaviest rain for 10^4 cycles on 65 x 65 (closed edges): no wrap, no negative water, depth capped and counted, balances exact", () => {
        checkHeaviestRain(65);
    });
});
