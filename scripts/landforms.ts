// `npm run landforms`: what the erosion lays down on four terrains built for landforms that build
// (scripts/realism/landforms.ts): a fan, a floodplain, a delta and a talus apron, at the defaults
// (the delta: with the shallow water on, whose lake it is built into; the apron: the mesa's
// settings, and again with the default thermal and at 100 cycles, for the record), 40 cycles. Each
// is also a realism claim (scripts/realism/landformClaims.ts).
import { APRON_OPTIONS, apronFigures, deltaFigures, fanFigures, floodplainFigures, type LandformFigures } from "./realism/landforms.js";

function print(found: LandformFigures, seconds: number, how = ""): void {
    console.log(`${found.terrain}${how} (${seconds.toFixed(0)} s)`);
    for (const [what, value] of Object.entries(found.figures)) console.log(`    ${what}: ${value.toFixed(4)}`);
}

const runs: [() => LandformFigures, string][] = [
    [() => fanFigures(), ""],
    [() => floodplainFigures(), ""],
    [() => deltaFigures(), ""],
    [() => apronFigures(), ", the mesa's settings"],
    [() => apronFigures(APRON_OPTIONS, 100), ", the mesa's settings, 100 cycles"],
    [() => apronFigures({ materials: APRON_OPTIONS.materials }), ", the mesa's materials, the default thermal"],
];
for (const [measure, how] of runs) {
    const started = Date.now();
    print(measure(), (Date.now() - started) / 1000, how);
}
