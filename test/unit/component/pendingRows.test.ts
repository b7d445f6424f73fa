/**
 * The rows frames bring back reach the grounds a band at a time (`PendingRows`): in the order the
 * frames landed, at least a band of 8 rows a frame and every frame's rows within `DRAIN_FRAMES`
 * frames (`MAX_DRAIN_FRAMES` when the budget cannot hold them) however little a frame applies, the maps' texels cut to each band, a frame's `applied` once its
 * last row is on, and a lost backend's rows dropped.
 */
import { cpuPresenter, DETACHED_GPU_PRESENTER, DRAIN_FRAMES, MAX_DRAIN_FRAMES, PendingRows, present, type LandedRows } from "../../../plugin/internal.js";

const WIDTH = 4;

/** A stand-in backend, presented as a CPU backend (its rows uploaded from the CPU data) or a GPU one (not): all `PendingRows` asks of it. */
function fakeBackend(cpu: boolean): LandedRows["backend"] {
    const fake = { name: cpu ? "cpu" : "webgpu" } as unknown as LandedRows["backend"];
    return present(fake, cpu ? cpuPresenter(fake) : DETACHED_GPU_PRESENTER);
}

const backend = fakeBackend(true);

function landed(y0: number, y1: number, value: number, applied?: () => void, from = backend): LandedRows {
    const rows = new Int32Array((y1 - y0) * WIDTH).fill(value);
    const texels = { maps: new Float32Array((y1 - y0) * WIDTH * 4).map((_, i) => y0 + Math.floor(i / (WIDTH * 4))), area: new Float32Array((y1 - y0) * WIDTH), water: null, materials: null };
    return { backend: from, rows, y0, y1, texels, batches: [], applied };
}

describe("PendingRows", () => {
    it("applies a band of at least 8 rows a frame at no budget, in order, each band's texels its own rows", () => {
        const bands: { y0: number; y1: number; first: number; texelRow: number }[] = [];
        const pending = new PendingRows(WIDTH, (frame, y0, y1, texels) => bands.push({ y0, y1, first: frame.rows![(y0 - frame.y0) * WIDTH], texelRow: texels!.maps[0] }), 0);
        let applied = 0;
        pending.add(landed(0, 20, 1, () => applied++), 0);
        pending.applyWithin(0, backend);
        expect(bands).toEqual([{ y0: 0, y1: 8, first: 1, texelRow: 0 }]);
        pending.applyWithin(0, backend);
        expect(applied).toBe(0);
        pending.applyWithin(0, backend);
        expect(bands.map(({ y0, y1 }) => [y0, y1])).toEqual([
            [0, 8],
            [8, 16],
            [16, 20],
        ]);
        expect(bands[2].texelRow).toBe(16);
        expect(applied).toBe(1);
        expect(pending.pending).toBe(false);
        pending.add(landed(5, 9, 2), 0);
        pending.flush(backend);
        expect(bands[3]).toEqual({ y0: 5, y1: 9, first: 2, texelRow: 5 });
        expect(pending.pending).toBe(false);
    });

    it.each([
        ["a frame budget that holds them", DRAIN_FRAMES, 1e9],
        ["no frame budget", MAX_DRAIN_FRAMES, 0],
    ])("never falls behind what lands: with %s, each frame's rows are all applied within %p frames of landing however little a frame may apply", (_what, frames, frameBudgetMs) => {
        const done: number[] = [];
        const pending = new PendingRows(WIDTH, () => undefined, 0);
        let now = 0;
        for (let frame = 0; frame < 30; frame++) {
            const landedAt = frame;
            pending.add(landed(0, 60, 1, () => done.push(now - landedAt)), 0, frameBudgetMs);
            now = frame + 1;
            pending.applyWithin(0, backend);
        }
        expect(done.length).toBeGreaterThanOrEqual(30 - frames);
        expect(Math.max(...done)).toBe(frames);
    });

    it("applies every row within a generous budget, and drops the rows of another backend (a lost device's)", () => {
        const bands: [number, number][] = [];
        const pending = new PendingRows(WIDTH, (_frame, y0, y1) => bands.push([y0, y1]), 0);
        const lost = fakeBackend(false);
        pending.add(landed(0, 10, 1, undefined, lost), 0);
        pending.add(landed(0, 100, 1), 0);
        pending.applyWithin(1000, backend);
        expect(bands).toEqual([[0, 100]]);
        expect(pending.pending).toBe(false);
    });

    it("calls a frame without rows' applied in its turn", () => {
        const order: string[] = [];
        const pending = new PendingRows(WIDTH, (frame, y0, y1) => order.push(frame.rows ? `rows ${y0}-${y1}` : "no rows"), 0);
        pending.add(landed(0, 12, 1, () => order.push("first applied")), 0);
        pending.add({ backend, rows: null, y0: 0, y1: 0, texels: null, batches: [], applied: () => order.push("second applied") }, 0);
        pending.flush(backend);
        expect(order).toEqual(["rows 0-12", "first applied", "no rows", "second applied"]);
    });

    it("applies rows that cost less than the budget (or 2 ms) as they land, when nothing waits before them", () => {
        const bands: [number, number][] = [];
        const pending = new PendingRows(WIDTH, (_frame, y0, y1) => bands.push([y0, y1]));
        pending.add(landed(0, 30, 1), 0.05);
        expect(bands).toEqual([[0, 30]]);
        expect(pending.pending).toBe(false);
    });

    it("uploads at most its vertices a frame interval for the CPU backend (10 rows here, at a 1 ms budget) however cheap the rows, the GPU backend's rows (not uploaded) at once", () => {
        const bands: [number, number][] = [];
        const webgpu = fakeBackend(false);
        const pending = new PendingRows(WIDTH, (_frame, y0, y1) => bands.push([y0, y1]), 0, 10 * WIDTH, 5 * WIDTH);
        pending.add(landed(0, 30, 1, undefined, webgpu), 1e9, 1);
        expect(bands).toEqual([[0, 30]]);
        bands.length = 0;
        // 30 rows of 4 vertices, 10 rows a frame: queued, then a band of 10 a frame (its deadline counts the frames it needs).
        let applied = 0;
        pending.add(landed(0, 30, 1, () => applied++), 1e9, 1);
        expect(bands).toEqual([]);
        for (let frame = 0; frame < 3; frame++) pending.applyWithin(1e9, backend, 1);
        expect(bands).toEqual([
            [0, 10],
            [10, 20],
            [20, 30],
        ]);
        expect(applied).toBe(1);
        // Rows applied as they landed count against the next frame's: 6 rows leave room for 4, but its
        // deadline (3 frames for 14 rows) has 5 due.
        bands.length = 0;
        pending.add(landed(0, 6, 2), 1e9, 1);
        pending.add(landed(6, 20, 3), 1e9, 1);
        pending.applyWithin(1e9, backend, 1);
        expect(bands).toEqual([
            [0, 6],
            [6, 11],
        ]);
        pending.applyWithin(1e9, backend, 1);
        expect(bands[2]).toEqual([11, 20]);
        expect(pending.backlogged(backend, 1)).toBe(false);
        pending.add(landed(0, 30, 4), 1e9, 1);
        expect(pending.backlogged(backend, 1)).toBe(true); // 30 rows waiting, more than the next two frames upload (20)
        expect(pending.backlogged(backend, 2)).toBe(false); // at a 2 ms budget, 20 rows a frame
        pending.flush(backend); // a queued operation's flush applies everything
        expect(pending.pending).toBe(false);
        // At 0.01 ms still the least a frame uploads (5 rows here, not 0.1): 8 rows waiting are not more
        // than two frames' uploads, so only their cost can say backlogged. That cost is measured (the
        // applies above, timed): on a loaded host it passed the 0.02 ms two such frames hold, so it is
        // compared with itself here, not assumed small.
        pending.add(landed(0, 8, 5), 1e9, 0.01);
        expect(pending.pending).toBe(true);
        expect(pending.backlogged(backend, 0.01)).toBe(pending.backlogMs(backend) > (DRAIN_FRAMES - 1) * 0.01);
    });
});
