/**
 * Edits of every kind made while erosion runs in the browser (test/browser/pages/groundEdits.ts,
 * `stampedRun`), checked against the CPU reference replaying them at the stamps their handles
 * report: the main suite runs one budget, the soak the others (test/soak/groundEditBudgets.test.ts).
 */
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions, type GridPoint, type GroundEditRequest } from "../../plugin/index.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { parseInputLog, replayInputLog, serializeInputLog } from "../../plugin/lockstep.js";
import { decodeInt32, encodeInt32 } from "./base64.js";
import type { OpenPage } from "./browser.js";
import type { ReplayRequest, StampedRunRequest, StampedRunResult } from "../browser/pages/groundEdits.js";

const SIZE = 65;
const UNIT = 65536;
/** World (x, z) on the page's centred 64 x 64 ground (1-unit cells) as a grid point. */
const cell = (x: number, z: number): GridPoint => ({ x: x + (SIZE - 1) / 2, y: (SIZE - 1) / 2 - z });
/** The page's edits in grid units and fixed point, in the order it makes them (stampedRun). */
const EDITS: { request: GroundEditRequest; points: GridPoint[]; radius: number }[] = [
    { request: { kind: "crater", depth: 2 * UNIT, rim: true }, points: [cell(-10, 8)], radius: 6 },
    { request: { kind: "dig", depth: 1.5 * UNIT }, points: [cell(12, -4)], radius: 4 },
    { request: { kind: "dig", depth: 1 * UNIT }, points: [cell(-20, -20), cell(0, -12), cell(20, -22)], radius: 1.5 },
    { request: { kind: "pile", height: 2 * UNIT }, points: [cell(5, 18)], radius: 5 },
    { request: { kind: "flatten", target: 3 * UNIT, edge: 0.4 }, points: [cell(-18, 16)], radius: 7 },
];

/** The page's run against the reference at the same stamps: the same fingerprint, and the same after the snapshot's restore. */
export async function checkStampedRun(browser: OpenPage, request: StampedRunRequest): Promise<void> {
    const result = await browser.page.evaluate((r) => (window as unknown as { stampedRun(r: StampedRunRequest): Promise<StampedRunResult> }).stampedRun(r), request);
    console.log(`${result.backend} at ${request.frameBudgetMs} ms: stamps ${result.edits.map((edit) => `${edit.kind}@${edit.cycle}.${edit.batch}`).join(", ")}; ${result.snapshotEdits} edit(s) pending at the snapshot`);
    const entries = parseInputLog(result.log);
    expect(entries.map((entry) => entry.kind)).toEqual(["edit", "options", "edit", "erodeAt", "edit", "mask", "sources", "edit", "edit", "restore"]);
    // The reference: the page's edits from their world positions converted here, at the stamps their
    // handles report, and the other inputs as logged, each where it was given.
    const sim = new CpuErosionSimulation(SIZE, SIZE, heightsToFixed(Float32Array.from(generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 9, relief: 10 }))), resolveOptions({ patchSize: 32, hydraulic: { dropletsPerBatch: 256 }, rivers: { erosion: 0.1 } }));
    let k = 0;
    for (const entry of entries.filter((logged) => logged.kind !== "restore")) {
        sim.runUntil(entry.at);
        if (entry.kind === "edit") {
            const { request: asked, points, radius } = EDITS[k];
            sim.edit(asked, points, radius, result.edits[k++]);
        } else {
            sim.give(entry);
        }
    }
    sim.runCycles(request.cycles - sim.stamp.cycle);
    expect(result.backend).toBe(request.backend);
    expect(result.fingerprint).toBe(sim.fingerprint());
    expect(result.restoredFingerprint).toBe(result.fingerprint);
    // The page's log replayed from its first snapshot on the CPU reference in Node: the live
    // fingerprint where each entry was given, and where the page ended after the restore.
    const first = ErosionSnapshot.fromArrayBuffer(decodeInt32(result.first).buffer as ArrayBuffer);
    let checked = 0;
    const replayed = replayInputLog(first, entries, {
        until: result.end,
        onEntry: (entry, replay) => {
            expect({ seq: entry.seq, fingerprint: replay.fingerprint() }).toEqual({ seq: entry.seq, fingerprint: result.fingerprints[entry.seq - 1] });
            checked++;
        },
    });
    expect(checked).toBe(entries.length);
    expect(replayed.fingerprint()).toBe(result.restoredFingerprint);
    // And the other way: the reference's own log, replayed on the page's backend.
    const replay: ReplayRequest = { backend: result.backend as ReplayRequest["backend"], first: encodeInt32(new Int32Array(first.toArrayBuffer())), log: serializeInputLog(sim.log.entries), until: sim.stamp };
    const other = await browser.page.evaluate((r) => (window as unknown as { replayRun(r: ReplayRequest): Promise<{ backend: string; fingerprint: string }> }).replayRun(r), replay);
    expect(other).toEqual({ backend: replay.backend, fingerprint: sim.fingerprint() });
}
