/**
 * Long runs of the component on WebGPU (the componentWebgpu test page), at any length: the soak
 * suite runs them short (test/soak/robustnessWebgpu.test.ts) and long (test/soak/webgpuLongRuns.test.ts).
 */
import { erodeHeightfield, heightsToFixed } from "../../plugin/index.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { conservedMass, createInitialState, noMasks } from "../../plugin/advanced.js";
import { encodeInt32 } from "./base64.js";
import type { OpenPage } from "./browser.js";

/** Attaches and detaches a component `times` times: live GPU buffers and observers end where they started. */
export async function checkAttachDetachMany(browser: OpenPage, times: number): Promise<void> {
    const small = heightsToFixed(generateNoiseTerrain({ width: 33, depth: 33, relief: 5 }));
    const result = await browser.page.evaluate((r) => (window as any).attachDetachMany(r), { width: 33, depth: 33, heights: encodeInt32(small), options: { patchSize: 16, hydraulic: { dropletsPerBatch: 32 } }, cycles: 0, times });
    expect(result.maxHeld).toBeGreaterThan(result.before.buffers);
    expect(result.after).toEqual(result.before);
}

/**
 * `cycles` on a `size`² ground on WebGPU: no wrap, heights within the initial range widened by 10%
 * of the relief, mass balanced to the unit, the CPU's fingerprint.
 */
export async function checkLongRun(browser: OpenPage, size: number, cycles: number): Promise<void> {
    const start = heightsToFixed(generateNoiseTerrain({ width: size, depth: size, relief: 40, seed: 21 }));
    const options = { patchSize: 64, seed: 8, hydraulic: { dropletsPerBatch: 256, maxSteps: 48 }, rivers: { erosion: 0.1 } };
    const result = await browser.page.evaluate((r) => (window as any).longRun(r), { width: size, depth: size, heights: encodeInt32(start), options, cycles });
    let low = Infinity;
    let high = -Infinity;
    for (const h of start) {
        low = Math.min(low, h);
        high = Math.max(high, h);
    }
    const margin = (high - low) * 0.1;
    expect(Math.min(...result.heights)).toBeGreaterThanOrEqual(low - margin);
    expect(Math.max(...result.heights)).toBeLessThanOrEqual(high + margin);
    const mass = conservedMass({ width: size, depth: size, cycle: cycles, batch: 0, heights: Int32Array.from(result.heights), suspended: Int32Array.from(result.suspended), drainageArea: new Int32Array(size * size), fillLevels: new Int32Array(size * size), masks: noMasks(), counters: Float64Array.from(result.counters) });
    expect(mass).toBe(conservedMass(createInitialState(size, size, start)));
    expect(result.fingerprint).toBe(erodeHeightfield(start, size, size, options, cycles).fingerprint);
}
