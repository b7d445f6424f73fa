/**
 * A river batch's sparse steps (plugin/kernels/rivers/mirror/riverFrontier.ts): once few vertices change, the
 * drainage-area steps and sediment hops visit only those and their receivers. They must give the
 * dense steps' integers (the WGSL's) to the unit: in one band and split into bands (each band
 * working its edge rows in full), on a tileable terrain (receivers across the seam), on a patch
 * narrower than the field, with a rivers mask.
 */
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { buildBatchParams, createInitialState, fingerprintOf, noMasks, type ErosionStateData } from "../../../plugin/advanced.js";
import { createRiverScratch, RiverBandWork, riverPhaseBand, riverPhases, runRiverPhase } from "../../../plugin/internal.js";

interface Run {
    fingerprint: string;
    counters: number[];
    /** Area steps and hops whose step before listed every change (so they visited only the frontier). */
    sparseSteps: number;
}

/** `batches` river batches over `patch` of a noise field, its phases split into `bands` run in turn; `share` 0 makes every step dense. */
function riverRun(size: number, options: ErosionOptionsInput, patch: { x0: number; y0: number; x1: number; y1: number }, bands: number, share: number | null, masked: boolean, batches: number): Run {
    const resolved = resolveOptions({ patchSize: 64, hydraulic: { enabled: false }, thermal: { enabled: false }, ...options });
    const state: ErosionStateData = createInitialState(size, size, heightsToFixed(generateNoiseTerrain({ width: size, depth: size, relief: 30, seed: 23 })));
    const masks = noMasks();
    if (masked) masks.rivers = Int32Array.from({ length: size * size }, (_, i) => ((i % size) * 65536) / size);
    const scratch = createRiverScratch(size * size);
    const works = Array.from({ length: bands }, () => RiverBandWork.create(size * size));
    if (share !== null) works.forEach((work) => (work.frontierShare = share));
    let sparseSteps = 0;
    for (let batch = 0; batch < batches; batch++) {
        const params = buildBatchParams(resolved, { width: size, depth: size }, { index: 0, ...patch }, "rivers", batch, 0, masks);
        for (const phase of riverPhases(params, resolved.rivers.stepsPerBatch)) {
            for (let band = 0; band < bands; band++) {
                const work = works[band];
                if (phase.kind === "area" && phase.step > 0 && work.changed(phase.step - 1).complete) sparseSteps++;
                if (phase.kind === "hop" && phase.hop >= 2 && work.changed(phase.hop - 1).complete) sparseSteps++;
                runRiverPhase(phase, riverPhaseBand(params, phase, band, bands), { params, state, masks, scratch, work, counters: state.counters, maps: null });
            }
        }
    }
    return { fingerprint: fingerprintOf(state), counters: [...state.counters], sparseSteps };
}

describe("a river batch's sparse steps", () => {
    const size = 48;
    const whole = { x0: 0, y0: 0, x1: size, y1: size };
    it.each([
        ["one band", {}, whole, 1, false],
        ["three bands", {}, whole, 3, false],
        ["a tileable terrain in two bands", { tileable: true }, whole, 2, false],
        ["a patch narrower than the field, masked, two bands", {}, { x0: 5, y0: 9, x1: 37, y1: 41 }, 2, true],
    ] as const)("give the dense steps' terrain and counters: %s", (_name, options, patch, bands, masked) => {
        const sparse = riverRun(size, { rivers: { erosion: 0.3, stepsPerBatch: 24 }, ...options }, patch, bands, null, masked, 3);
        const dense = riverRun(size, { rivers: { erosion: 0.3, stepsPerBatch: 24 }, ...options }, patch, bands, 0, masked, 3);
        expect(sparse.fingerprint).toBe(dense.fingerprint);
        expect(sparse.counters).toEqual(dense.counters);
        // The sparse run did visit frontiers, most of its steps (a test that could not fail otherwise).
        expect(sparse.sparseSteps).toBeGreaterThan(3 * bands * 24);
    });
});
