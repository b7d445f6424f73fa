/**
 * The droplet kernel on WebAssembly (plugin/kernels/droplets/dropletBatchWasm.ts) against the TypeScript
 * passes it mirrors: the same change, water visits and counters, to the unit, on every path the
 * kernel has (no brush and brushes, masks, water visits or none, what a droplet holds at the end
 * laid down or counted as outflow, droplets leaving the field and brushes reaching past its edge,
 * a patch whose window is narrower than the field, a local event's disc, a batch split between
 * threads, a change accumulator that already holds something, the materials' soil and hardness).
 */
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { buildBatchParams, FIXED_ONE, layoutPatches, type BatchParams, type MaterialGrids } from "../../../plugin/advanced.js";
import { brushEntryCount, buildBrush, COUNTER_COUNT, COUNTER_DROPLET_STEPS, COUNTER_OUTFLOW, dropletBatchWasmAvailable, erodeDroplets, useDropletBatchWasm } from "../../../plugin/internal.js";

const WIDTH = 150;
const DEPTH = 110;

interface Batch {
    params: BatchParams;
    brush: Int32Array;
    mask: Int32Array | null;
    water: boolean;
    start: Int32Array;
    split?: number;
    ground?: Int32Array;
    materials?: MaterialGrids;
}

interface Result {
    delta: Int32Array;
    water: Int32Array | null;
    counters: number[];
}

const noise = heightsToFixed(generateNoiseTerrain({ width: WIDTH, depth: DEPTH, relief: 40, seed: 9 }));

/** The noise with a plane falling `slope` metres a cell along +x (`alongX`) or -y: every droplet walks as far as it can, to its window's edge. */
function plane(alongX: boolean, slope: number): Int32Array {
    return noise.map((height, i) => height / 8 + Math.round((alongX ? WIDTH - (i % WIDTH) : Math.floor(i / WIDTH)) * slope * FIXED_ONE));
}

/** A mask of 32-cell squares: one held out, the next a ramp from 1/32 to 1. */
function rampedMask(): Int32Array {
    const mask = new Int32Array(WIDTH * DEPTH);
    for (let y = 0; y < DEPTH; y++) {
        for (let x = 0; x < WIDTH; x++) mask[y * WIDTH + x] = ((x >> 5) + (y >> 5)) % 2 === 0 ? 0 : Math.min(FIXED_ONE, ((x % 32) + 1) * 2048);
    }
    return mask;
}

/** Soil of up to 3 cells (none on a fifth of the vertices) and hardness factors from 1 to 4. */
function materials(): MaterialGrids {
    const soil = new Int32Array(WIDTH * DEPTH).map((_, i) => (i % 5 === 0 ? 0 : (i * 7919) % (3 * FIXED_ONE)));
    return { soil, hardness: new Int32Array(WIDTH * DEPTH).map((_, i) => 256 + ((i * 131) % 769)) };
}

const STRATA: ErosionOptionsInput["materials"] = { enabled: true, hardness: 3, strataThickness: 2, strataHardness: 9, strataShare: 0.5 };

/** A hydraulic batch over patch `patchIndex` of `patchSize`-cell patches. */
function batch(options: ErosionOptionsInput, patchSize: number, patchIndex: number, extra: Partial<Batch> = {}): Batch {
    const resolved = resolveOptions({ patchSize, ...options });
    const brush = buildBrush(resolved.hydraulic.brushRadius);
    const patch = layoutPatches(WIDTH, DEPTH, patchSize)[patchIndex];
    const params = buildBatchParams(resolved, { width: WIDTH, depth: DEPTH }, patch, "hydraulic", 3, brushEntryCount(brush));
    return { params, brush, mask: null, water: true, start: new Int32Array(WIDTH * DEPTH), ...extra };
}

function run(work: Batch, wasm: boolean): Result {
    useDropletBatchWasm(wasm);
    try {
        const delta = work.start.slice();
        const water = work.water ? new Int32Array(WIDTH * DEPTH) : null;
        const counters = new Float64Array(COUNTER_COUNT);
        const count = work.params.dropletCount;
        const split = work.split ?? count;
        const heights = work.ground ?? noise;
        erodeDroplets(work.params, heights, delta, work.brush, counters, 0, split, water, work.mask, work.materials ?? null);
        if (split < count) erodeDroplets(work.params, heights, delta, work.brush, counters, split, count, water, work.mask, work.materials ?? null);
        return { delta, water, counters: [...counters] };
    } finally {
        useDropletBatchWasm(true);
    }
}

const cases: [string, () => Batch][] = [
    ["no brush, over the whole field", () => batch({ hydraulic: { brushRadius: 0, dropletsPerBatch: 3000 } }, 1024, 0)],
    ["a radius-3 brush, without water visits", () => batch({ hydraulic: { brushRadius: 3, dropletsPerBatch: 3000 } }, 1024, 0, { water: false })],
    ["a radius-2 brush on a patch in the middle (a window narrower than the field)", () => batch({ hydraulic: { brushRadius: 2, dropletsPerBatch: 800, maxSteps: 12 } }, 32, 7)],
    ["a plane falling along +x, droplets walking to their window's right edge", () => batch({ hydraulic: { brushRadius: 3, dropletsPerBatch: 600, maxSteps: 20 } }, 32, 6, { ground: plane(true, 0.5) })],
    ["a plane falling along -y, droplets walking to their window's top edge", () => batch({ hydraulic: { brushRadius: 2, dropletsPerBatch: 600, maxSteps: 16 } }, 32, 7, { ground: plane(false, 0.5), mask: rampedMask() })],
    ["a radius-4 brush on a corner patch, droplets leaving the field", () => batch({ hydraulic: { brushRadius: 4, dropletsPerBatch: 800, maxSteps: 40, inertia: 0.3 } }, 32, 0)],
    ["what the droplets hold at the end counted as outflow", () => batch({ hydraulic: { brushRadius: 1, dropletsPerBatch: 1500, endOfWalk: "carry" } }, 64, 1)],
    ["a mask with a radius-3 brush", () => batch({ hydraulic: { brushRadius: 3, dropletsPerBatch: 2000 } }, 1024, 0, { mask: rampedMask() })],
    ["a mask without a brush, on an edge patch", () => batch({ hydraulic: { brushRadius: 0, dropletsPerBatch: 1500, maxSteps: 20 } }, 64, 2, { mask: rampedMask() })],
    ["a batch split between two threads, onto a change that already holds something", () => {
        const start = new Int32Array(WIDTH * DEPTH).map((_, i) => ((i * 7919) % 2001) - 1000);
        return batch({ hydraulic: { brushRadius: 3, dropletsPerBatch: 2000 } }, 1024, 0, { start, split: 777 });
    }],
    ["the materials (soil, strata, hardness factors) with a radius-2 brush, droplets leaving the field", () => batch({ hydraulic: { brushRadius: 2, dropletsPerBatch: 1500, maxSteps: 30 }, materials: STRATA }, 64, 0, { materials: materials() })],
    ["the materials without a mask with a radius-3 brush over the whole field (12-byte cells, the brush's quads)", () => batch({ hydraulic: { brushRadius: 3, dropletsPerBatch: 2000 }, materials: STRATA }, 1024, 0, { materials: materials() })],
    ["the materials without a mask or a brush", () => batch({ hydraulic: { brushRadius: 0, dropletsPerBatch: 1500 }, materials: STRATA }, 1024, 0, { materials: materials() })],
    ["the materials under a mask, without a brush", () => batch({ hydraulic: { brushRadius: 0, dropletsPerBatch: 1500 }, materials: STRATA }, 1024, 0, { materials: materials(), mask: rampedMask() })],
    ["the materials under a mask with a radius-3 brush, split between two threads", () => batch({ hydraulic: { brushRadius: 3, dropletsPerBatch: 1200 }, materials: STRATA }, 1024, 0, { materials: materials(), mask: rampedMask(), split: 500 })],
    ["a local event's disc", () => {
        const work = batch({ hydraulic: { brushRadius: 2, dropletsPerBatch: 1200, maxSteps: 30 } }, 1024, 0);
        Object.assign(work.params, { spawnDisc: 1, discCentreX: 130 * FIXED_ONE + 4321, discCentreY: 20 * FIXED_ONE, discRadius: 25 * FIXED_ONE });
        return work;
    }],
];

describe("the droplet kernel on WebAssembly", () => {
    it("can run in this environment (so the comparisons below compare two engines)", () => {
        expect(dropletBatchWasmAvailable()).toBe(true);
    });

    it.each(cases)("gives the TypeScript passes' change, water visits and counters with %s", (_, make) => {
        const work = make();
        const wasm = run(work, true);
        const typescript = run(work, false);
        expect(wasm.counters[COUNTER_DROPLET_STEPS]).toBeGreaterThan(0);
        expect(wasm.delta.some((value, i) => value !== work.start[i])).toBe(true);
        expect(wasm.counters).toEqual(typescript.counters);
        expect(wasm.delta).toEqual(typescript.delta);
        expect(wasm.water).toEqual(typescript.water);
    });

    it("keeps mass exact: what the droplets moved is in the change or counted as outflow", () => {
        const work = batch({ hydraulic: { brushRadius: 3, dropletsPerBatch: 1500, endOfWalk: "carry" } }, 64, 0);
        const { delta, counters } = run(work, true);
        expect(counters[COUNTER_OUTFLOW]).toBeGreaterThan(0);
        expect(delta.reduce((sum, value) => sum + value, 0) + counters[COUNTER_OUTFLOW]).toBe(0);
    });
});
