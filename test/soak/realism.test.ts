/**
 * The realism thresholds the repository claims (scripts/realism/claims.ts) at CI size: the centre
 * 257^2 of Mont Blanc and 129^2 (and 257^2) generated grids. `npm run realism` checks the same
 * claims at full size and draws the pictures.
 */
import { CLAIMS } from "../../scripts/realism/claims.js";

describe("realism claims (CI size)", () => {
    it.each(CLAIMS.map((claim) => [claim.title, claim] as const))("%s", async (_title, claim) => {
        const found = await claim.evaluate("ci");
        const missed = found.checks.filter((check) => !check.passed).map((check) => `${check.what}: ${check.value.toFixed(3)} (needs ${check.bound})`);
        expect(missed).toEqual([]);
    });
});
