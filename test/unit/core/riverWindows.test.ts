/**
 * A river batch run in windows of rows (plugin/kernels/rivers/riverWindows.ts), as a large bake runs it
 * to keep its scratch a window's: the whole-field batch's terrain, maps and counters to the unit,
 * on a field cut into several windows, with masks and a patch narrower than the field, its walks on
 * WebAssembly and in TypeScript; and an apron one row short of what the proof asks for gives
 * another terrain (so the test can fail).
 */
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { heightsToFixed, resolveOptions, type ErosionMaps } from "../../../plugin/index.js";
import { buildBatchParams, createInitialState, createMaps, fingerprintOf, noMasks, type ErosionStateData } from "../../../plugin/advanced.js";
import { COUNTER_COUNT, createMaterialGrids, createRiverScratch, RiverBandWork, RiverWindows, runRiverBatch, useRiverWalkWasm } from "../../../plugin/internal.js";
import { rampedRiverMasks } from "../../helpers/riverMasks.js";

const WIDTH = 40;
const DEPTH = 150;
const STEPS = 6;

interface Run {
    fingerprint: string;
    counters: number[];
    maps: ErosionMaps;
}

/** Three river batches over `patch` of a noise field, whole or in windows of `windowVertices`. */
function riverRun(windows: RiverWindows | null, patch: { x0: number; y0: number; x1: number; y1: number }, masked: boolean, rock = false): Run {
    // Rock and soil: beds dipping toward +z (the rows), so a window's beds lie where the field's do only with its first row's dip.
    const materials = rock ? { enabled: true, hardness: 2, strataThickness: 1, strataShare: 0.5, strataDip: 0.4, strataDipDirection: 90 } : {};
    const options = resolveOptions({ patchSize: 64, hydraulic: { enabled: false }, thermal: { enabled: false }, rivers: { erosion: 0.3, uplift: 0.02, stepsPerBatch: STEPS }, materials });
    const state: ErosionStateData = createInitialState(WIDTH, DEPTH, heightsToFixed(generateNoiseTerrain({ width: WIDTH, depth: DEPTH, relief: 30, seed: 41 })));
    if (rock) state.materials = createMaterialGrids(WIDTH * DEPTH, 65536);
    const masks = masked ? rampedRiverMasks(WIDTH, DEPTH, 400) : noMasks();
    const maps = createMaps(WIDTH * DEPTH);
    const scratch = createRiverScratch(WIDTH * DEPTH);
    const work = RiverBandWork.create(WIDTH * DEPTH);
    for (let batch = 0; batch < 3; batch++) {
        const params = buildBatchParams(options, { width: WIDTH, depth: DEPTH }, { index: 0, ...patch }, "rivers", batch, 0, masks);
        if (windows) windows.run(params, STEPS, state, masks, maps);
        else runRiverBatch(params, STEPS, state, masks, scratch, work, maps);
    }
    return { fingerprint: fingerprintOf(state), counters: [...state.counters], maps };
}

/** Windows whose aprons are `short` rows shorter than they must be. */
class ShortApronWindows extends RiverWindows {
    constructor(
        windowVertices: number,
        private readonly _short: number
    ) {
        super(COUNTER_COUNT, windowVertices);
    }

    public override apronRows(phases: number): number {
        return super.apronRows(phases) - this._short;
    }
}

describe("a river batch in windows of rows", () => {
    // Aprons of 2 x 6 + 6 + 2 = 20 rows, bands of 40 rows: four windows over 150 rows.
    const windowVertices = WIDTH * 60;
    it.each([
        ["the whole field", { x0: 0, y0: 0, x1: WIDTH, y1: DEPTH }, false, false],
        ["a narrower patch, masked", { x0: 3, y0: 17, x1: 35, y1: 131 }, true, false],
        ["rock and soil: dipping strata, a cell of soil", { x0: 0, y0: 0, x1: WIDTH, y1: DEPTH }, false, true],
    ] as const)("gives the whole-field batch's terrain, maps and counters: %s", (_name, patch, masked, rock) => {
        const windows = new RiverWindows(COUNTER_COUNT, windowVertices);
        expect(windows.bandRows(WIDTH, windows.apronRows(2 * STEPS + 6))).toBe(40);
        const whole = riverRun(null, patch, masked, rock);
        if (rock) expect(whole.fingerprint).not.toBe(riverRun(null, patch, masked).fingerprint);
        // Each window's walk counts its aprons' vertices apart, on WebAssembly and in TypeScript.
        for (const wasm of [true, false]) {
            useRiverWalkWasm(wasm);
            const windowed = riverRun(windows, patch, masked, rock);
            useRiverWalkWasm(true);
            expect(windowed.fingerprint).toBe(whole.fingerprint);
            expect(windowed.counters).toEqual(whole.counters);
            expect(windowed.maps).toEqual(whole.maps);
        }
    });

    it("needs its whole apron: one that stops short gives another terrain", () => {
        const whole = riverRun(null, { x0: 0, y0: 0, x1: WIDTH, y1: DEPTH }, false);
        const short = riverRun(new ShortApronWindows(windowVertices, 12), { x0: 0, y0: 0, x1: WIDTH, y1: DEPTH }, false);
        expect(short.fingerprint).not.toBe(whole.fingerprint);
    });
});
