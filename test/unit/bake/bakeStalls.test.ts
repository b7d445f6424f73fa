/**
 * A tiled bake whose tile job never returns (a transport that holds a chosen job's answer back):
 * the stall is reported naming the tiles, the step and the wait, the missing jobs go again and the
 * bake reaches the fingerprint of an undisturbed one; with every job of a step held, past
 * `stallRetries` the coordinator runs them itself and the bake stops there, its state whole (a
 * bake resumed from it reaches the same fingerprint).
 */
import { erodeHeightfield, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { createInitialState, fingerprintOf, toFixedHeights } from "../../../plugin/advanced.js";
import { bakeStart, runBake, TiledBakeDevice, TileWorkbench, type StepTransport } from "../../../plugin/internal.js";
import type { ErosionStateData } from "../../../plugin/advanced.js";
import { never } from "../../helpers/stalls.js";

const SIZE = 65;
const OPTIONS: ErosionOptionsInput = { patchSize: 16, seed: 4, hydraulic: { dropletsPerBatch: 200 }, stallTimeoutMs: 200, stallRetries: 2 };
const HEIGHTS = generateNoiseTerrain({ width: SIZE, depth: SIZE, relief: 30, seed: 5 });

/** A step's place, a job's tile and its place among the jobs sent, and the how-many-th time the step's jobs are sent (from 0). */
type Hold = (step: { cycle: number; group: number }, tile: number, index: number, attempt: number) => boolean;

/** Runs each step's jobs here, answering every one but those `hold` picks (whose answers never come); counts the attempts of each step. */
function holdingTransport(hold: Hold): StepTransport & { abandoned: number } {
    const bench = new TileWorkbench();
    const attempts = new Map<string, number>();
    const transport = {
        description: "in process, holding",
        abandoned: 0,
        async runStep(step: { cycle: number; group: number }, jobs: readonly { tile: number }[], input: (job: never) => Uint8Array, output: (index: number, bytes: Uint8Array) => void) {
            const key = `${step.cycle}:${step.group}`;
            const attempt = attempts.get(key) ?? 0;
            attempts.set(key, attempt + 1);
            let holding = false;
            jobs.forEach((job, k) => {
                if (hold(step, job.tile, k, attempt)) holding = true;
                else output(k, bench.run(input(job as never), `tile ${job.tile}`));
            });
            if (holding) await never();
        },
        async abandon() {
            transport.abandoned++;
        },
        close: async () => undefined,
    };
    return transport as StepTransport & { abandoned: number };
}

/** Bakes from `state` to `cycles` on 2 x 2 tiles through `transport`, collecting the stalls reported. */
async function bakeTiled(state: ErosionStateData, cycles: number, transport: StepTransport) {
    const options = resolveOptions(OPTIONS);
    const stalls: string[] = [];
    const device = new TiledBakeDevice(state, 2, transport, { stallTimeoutMs: options.stallTimeoutMs, stallRetries: options.stallRetries, onStall: (message) => stalls.push(message) });
    const result = await runBake({ start: bakeStart(state), options, cellSize: 1, cycles, device });
    device.dispose();
    return { result, stalls, fingerprint: fingerprintOf(result.state) };
}

function startState(): ErosionStateData {
    return createInitialState(SIZE, SIZE, toFixedHeights(HEIGHTS, 1));
}

describe("a tiled bake whose tile job never returns", () => {
    const reference = erodeHeightfield(HEIGHTS, SIZE, SIZE, OPTIONS, 2, 1).fingerprint;

    it("is reported, the job goes again, and the bake ends with the undisturbed fingerprint", async () => {
        let heldTile = -1;
        const transport = holdingTransport((step, tile, index, attempt) => step.cycle === 1 && step.group === 2 && index === 0 && attempt === 0 && ((heldTile = tile), true));
        const { result, stalls, fingerprint } = await bakeTiled(startState(), 2, transport);
        expect(stalls).toHaveLength(1);
        expect(stalls[0]).toMatch(/^The bake's tile jobs stalled: tile jobs [\d, ]+ of cycle 1, class 2 did not settle within \d+ ms \(tileJob\)/);
        expect(stalls[0]).toContain(`Tiles ${heldTile} of cycle 1, class 2 had not answered; sending them again (stall 1; stallRetries 2).`);
        expect(transport.abandoned).toBe(1);
        expect(result.stopped).toBe(false);
        expect(result.stall).toBeNull();
        expect(fingerprint).toBe(reference);
    });

    it("stops after stallRetries, the held jobs run on the coordinator, its state whole: a bake resumed from it ends with the same fingerprint", async () => {
        const transport = holdingTransport((step) => step.cycle === 1 && step.group === 1);
        const { result, stalls, fingerprint } = await bakeTiled(startState(), 2, transport);
        expect(stalls).toHaveLength(3);
        expect(stalls[2]).toMatch(/more stalls than stallRetries \(2\): the coordinator runs them itself and the bake stops after this step\.$/);
        expect(result.stopped).toBe(true);
        expect(result.stall).toBe(stalls[2]);
        // It stopped right after the held step: cycle 1, past its first class.
        expect(result.state.cycle).toBe(1);
        expect(result.state.batch).toBeGreaterThan(0);
        expect(fingerprint).not.toBe(reference);
        const resumed = await bakeTiled(result.state, 2, holdingTransport(() => false));
        expect(resumed.stalls).toEqual([]);
        expect(resumed.fingerprint).toBe(reference);
    });
});
