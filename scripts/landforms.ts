// `npm run landforms`: what the erosion lays down on four terrains built for landforms that build
// (scripts/realism/landforms.ts): a fan, a floodplain, a delta and a talus apron, at the defaults
// (the delta: with the shallow water on, whose lake it is built into; the apron: the mesa's
// settings), 40 cycles. The fan, the floodplain and the delta are also realism claims at 100 cycles
// (scripts/realism/landformClaims.ts); the apron is measured only.
import { apronFigures, deltaFigures, fanFigures, floodplainFigures, type LandformFigures } from "./realism/landforms.js";

function print(found: LandformFigures, seconds: number): void {
    console.log(`${found.terrain} (${seconds.toFixed(0)} s)`);
    for (const [what, value] of Object.entries(found.figures)) console.log(`    ${what}: ${value.toFixed(4)}`);
}

for (const measure of [() => fanFigures(), () => floodplainFigures(), () => deltaFigures(), () => apronFigures()]) {
    const started = Date.now();
    print(measure(), (Date.now() - started) / 1000);
}
