/**
 * The queued bake coordinator's checkpoint (plugin/bake/queue/queueCheckpoint.ts): what it wrote
 * comes back exactly, and a coordinator killed in the middle of writing the next one leaves the
 * previous one usable (a restart that finds none starts at the bake's start, whose step outputs the
 * previous checkpoint already deleted from Redis, and cannot finish).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { resolveOptions } from "../../../plugin/index.js";
import { createInitialState, fingerprintOf, toFixedHeights } from "../../../plugin/advanced.js";
import { readQueueCheckpoint, writeQueueCheckpoint } from "../../../plugin/internal.js";

const SIDE = 17;
const options = resolveOptions({});
let dir = "";

beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "queue-checkpoint-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function stateAt(cycle: number) {
    const state = createInitialState(SIDE, SIDE, toFixedHeights(generateNoiseTerrain({ width: SIDE, depth: SIDE, relief: 10, seed: cycle })));
    state.cycle = cycle;
    const cells = SIDE * SIDE;
    const maps = { water: Uint32Array.from({ length: cells }, (_, i) => i), wear: new Uint32Array(cells).fill(cycle), deposition: new Uint32Array(cells).fill(7) };
    return { state, maps };
}

describe("the queued bake's coordinator checkpoint", () => {
    it("reads back what it wrote, for its own bake only", async () => {
        const path = join(dir, "out.queue-checkpoint");
        const { state, maps } = stateAt(2);
        await writeQueueCheckpoint(path, "bake-a", state, maps, options, 1);
        const read = await readQueueCheckpoint(path, "bake-a");
        expect(read && fingerprintOf(read.state)).toBe(fingerprintOf(state));
        expect(read?.maps).toEqual(maps);
        expect(await readQueueCheckpoint(path, "bake-b")).toBeNull();
        writeFileSync(path, "not a checkpoint");
        expect(await readQueueCheckpoint(path, "bake-a")).toBeNull();
    });

    it("keeps the previous checkpoint whole when writing the next one stops halfway", async () => {
        const path = join(dir, "out.queue-checkpoint");
        const before = stateAt(2);
        await writeQueueCheckpoint(path, "bake-a", before.state, before.maps, options, 1);
        // The next write dies after the snapshot, while the maps are read (a kill mid-write).
        const next = stateAt(3);
        const dying = {
            ...next.maps,
            get deposition(): Uint32Array {
                throw new Error("killed");
            },
        };
        await expect(writeQueueCheckpoint(path, "bake-a", next.state, dying, options, 1)).rejects.toThrow("killed");
        const read = await readQueueCheckpoint(path, "bake-a");
        expect(read?.state.cycle).toBe(2);
        expect(read && fingerprintOf(read.state)).toBe(fingerprintOf(before.state));
    });
});
