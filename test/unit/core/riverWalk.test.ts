/**
 * A river batch walked down its slot forest (plugin/kernels/rivers/fast/riverWalk.ts): the drainage-area
 * steps, erosion, uplift, settling and sediment hops in one walk must give the stepped phases'
 * integers (the WGSL's) to the unit: terrain, counters and maps, on noise from a new state and
 * after several batches, with an odd step count, masks, uplift and deposition, on a patch
 * narrower than the field (donors outside it), with sends past ROUTE_LIMIT, along a river longer
 * than the walk's first stack, with the materials, and walked in shares of its trees (as the worker pool splits it);
 * each walked both in TypeScript and on WebAssembly (plugin/kernels/rivers/fast/riverWalkWasm.ts).
 */
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { heightsToFixed, resolveOptions, type ErosionMaps, type ErosionOptionsInput } from "../../../plugin/index.js";
import { buildBatchParams, createInitialState, createMaps, fingerprintOf, noMasks, type ErosionStateData } from "../../../plugin/advanced.js";
import { createRiverScratch, RiverBandWork, riverPhaseBand, riverPhases, riverRoots, riverWalkWasmAvailable, riverWalkWasmStackLevels, runRiverPhase, splitRoots, useRiverWalkWasm, VertexList, type RiverPhase } from "../../../plugin/internal.js";
import { rampedRiverMasks } from "../../helpers/riverMasks.js";

interface Run {
    fingerprint: string;
    counters: number[];
    maps: ErosionMaps;
    /** Levels the walk's stack grew to. */
    stackLevels: number;
}

type Patch = { x0: number; y0: number; x1: number; y1: number };

/** How a run goes: stepped (every step dense), walked, or walked in `shares` of the roots one after another; walks on WebAssembly or in TypeScript. */
type Way = { kind: "stepped" } | { kind: "walked"; wasm: boolean } | { kind: "shares"; shares: number; wasm: boolean };

interface Field {
    width: number;
    depth: number;
    heights: Float32Array;
}

function noiseField(size: number, seed: number, relief = 30): Field {
    return { width: size, depth: size, heights: generateNoiseTerrain({ width: size, depth: size, relief, seed }) };
}

/** `batches` river batches over `patch` of `field`. */
function riverRun(field: Field, options: ErosionOptionsInput, patch: Patch, way: Way, masked: boolean, batches: number): Run {
    const { width, depth } = field;
    const resolved = resolveOptions({ patchSize: 64, hydraulic: { enabled: false }, thermal: { enabled: false }, ...options });
    const state: ErosionStateData = createInitialState(width, depth, heightsToFixed(field.heights));
    // With the materials: soil of up to 2 cells (none on a fifth of the vertices) and hardness factors from 1 to 4.
    if (resolved.materials.enabled) state.materials = { soil: new Int32Array(width * depth).map((_, i) => (i % 5 === 0 ? 0 : (i * 7919) % (2 * 65536))), hardness: new Int32Array(width * depth).map((_, i) => 256 + ((i * 131) % 769)) };
    const masks = masked ? rampedRiverMasks(width, depth, 300) : noMasks();
    const maps = createMaps(width * depth);
    const scratch = createRiverScratch(width * depth);
    const work = RiverBandWork.create(width * depth);
    work.frontierShare = 0;
    // The WebAssembly walk starts from a small stack (16 levels), so every run grows it.
    useRiverWalkWasm(way.kind !== "stepped" && way.wasm, 16);
    for (let batch = 0; batch < batches; batch++) {
        const params = buildBatchParams(resolved, { width, depth }, { index: 0, ...patch }, "rivers", batch, 0, masks);
        const context = { params, state, masks, scratch, work, counters: state.counters, maps };
        for (const phase of riverPhases(params, resolved.rivers.stepsPerBatch, way.kind !== "stepped")) {
            const rows = riverPhaseBand(params, phase, 0, 1);
            if (phase.kind === "walk" && way.kind === "shares") {
                // Sizes of the last batch's trees (or none yet): any split must give the same integers.
                const roots = riverRoots(params, scratch.riverSlots, new VertexList());
                const shares = splitRoots(roots, scratch.areaNext, way.shares, width * depth);
                expect(shares.reduce((sum, share) => sum + share.length, 0)).toBe(roots.length);
                for (const share of shares) runRiverPhase({ ...phase, roots: share } satisfies RiverPhase, rows, context);
            } else {
                runRiverPhase(phase, rows, context);
            }
        }
    }
    const stackLevels = way.kind !== "stepped" && way.wasm ? riverWalkWasmStackLevels() : work.walk.vertices.length;
    useRiverWalkWasm(true);
    return { fingerprint: fingerprintOf(state), counters: [...state.counters], maps, stackLevels };
}

function expectSame(walked: Run, stepped: Run): void {
    expect(walked.fingerprint).toBe(stepped.fingerprint);
    expect(walked.counters).toEqual(stepped.counters);
    expect(walked.maps).toEqual(stepped.maps);
}

describe("a river batch walked down its slot forest", () => {
    const size = 48;
    const whole = { x0: 0, y0: 0, x1: size, y1: size };
    const strong = { rivers: { erosion: 0.3, capacity: 0.05, deposition: 0.8, uplift: 0.02, stepsPerBatch: 24 } };
    it.each([
        ["the whole field, one batch from a new state", strong, whole, false, 1],
        ["the whole field, five batches", strong, whole, false, 5],
        ["an odd step count, masked, a patch narrower than the field", { rivers: { erosion: 0.5, uplift: 0.01, stepsPerBatch: 7 } }, { x0: 5, y0: 9, x1: 37, y1: 41 }, true, 4],
        ["one step a batch", { rivers: { erosion: 0.3, stepsPerBatch: 1 } }, whole, false, 6],
        ["the materials (soil, strata, hardness factors), masked, a patch narrower than the field", { ...strong, materials: { enabled: true, hardness: 2, strataThickness: 1.5, strataHardness: 8, strataShare: 0.5 } }, { x0: 3, y0: 6, x1: 40, y1: 44 }, true, 3],
    ] as const)("gives the stepped batch's terrain, counters and maps: %s", (_name, options, patch, masked, batches) => {
        const field = noiseField(size, 23);
        const stepped = riverRun(field, options, patch, { kind: "stepped" }, masked, batches);
        for (const wasm of [false, true]) {
            expectSame(riverRun(field, options, patch, { kind: "walked", wasm }, masked, batches), stepped);
            expectSame(riverRun(field, options, patch, { kind: "shares", shares: 3, wasm }, masked, batches), stepped);
        }
        // The batches did erode (a comparison of two unchanged fields could not fail).
        expect(stepped.fingerprint).not.toBe(riverRun(field, options, patch, { kind: "stepped" }, masked, 0).fingerprint);
    });

    it("gives the stepped batch's integers where sends that meet pass ROUTE_LIMIT", () => {
        // 3000 cells of relief and no capacity: loads of thousands of cells, sent at most
        // ROUTE_LIMIT (2048 cells) a hop, meet where rivers join (some 60 times in these batches).
        const field = noiseField(size, 23, 3000);
        const options = { rivers: { erosion: 0.9, capacity: 0, stepsPerBatch: 24 } };
        const stepped = riverRun(field, options, whole, { kind: "stepped" }, false, 4);
        for (const wasm of [false, true]) {
            expectSame(riverRun(field, options, whole, { kind: "walked", wasm }, false, 4), stepped);
            expectSame(riverRun(field, options, whole, { kind: "shares", shares: 2, wasm }, false, 4), stepped);
        }
    });

    it("follows a river longer than its first stack (1024 levels), through a basin", () => {
        // A 3 x 2400 ramp falling toward y = 0, with a dip to fill near its foot: rivers of some 2100 vertices above it.
        const width = 3;
        const depth = 2400;
        const heights = Float32Array.from({ length: width * depth }, (_, i) => {
            const y = Math.floor(i / width);
            return y * 0.05 + (Math.abs(y - 300) < 20 ? -3 : 0) + (i % width) * 0.01;
        });
        const field = { width, depth, heights };
        const options = { rivers: { erosion: 0.4, capacity: 0.1, stepsPerBatch: 32 } };
        const patch = { x0: 0, y0: 0, x1: width, y1: depth };
        const stepped = riverRun(field, options, patch, { kind: "stepped" }, false, 3);
        const walked = riverRun(field, options, patch, { kind: "walked", wasm: false }, false, 3);
        expectSame(walked, stepped);
        expect(walked.stackLevels).toBeGreaterThan(1024);
        // On WebAssembly from 16 levels: grown eight times, in the middle of trees.
        const onWasm = riverRun(field, options, patch, { kind: "walked", wasm: true }, false, 3);
        expectSame(onWasm, stepped);
        expect(onWasm.stackLevels).toBeGreaterThan(2048);
    });

    it("runs on WebAssembly under Node (the benchmark's and the workers' walk)", () => {
        expect(riverWalkWasmAvailable()).toBe(true);
    });

    it("leaves a tileable terrain's batch stepped (its neighbours wrap)", () => {
        const resolved = resolveOptions({ tileable: true, hydraulic: { enabled: false }, thermal: { enabled: false } });
        const params = buildBatchParams(resolved, { width: size, depth: size }, { index: 0, ...whole }, "rivers", 0, 0, noMasks());
        expect(riverPhases(params, 4, true).map((phase) => phase.kind)).not.toContain("walk");
        expect(riverPhases(params, 4, true)).toEqual(riverPhases(params, 4, false));
    });
});
