/**
 * The latency of an undo (`undoLatencyRecords`), and of a ground edit on a running component (`edit-latency`, frames; `edit-latency-ms`):
 * from the call (`dig`, a pit 6 m wide and 3 m deep at one of nine places) to the frame whose
 * `onPatchEroded` reports the edit's batch, i.e. its exact rows on the mesh's CPU data (on WebGPU
 * its vertex buffers were written a frame earlier at most); and what that frame cost
 * (`edit-frame`, ms, `lastFrame.measuredMs`: the edit and the erosion batches it shared the frame
 * with). Shared by the WebGPU page (benchGpu.ts) and the CPU backend's (benchWebgl.ts).
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { createGroundFromHeights } from "../../plugin/terrain.js";
import { fixedToHeights, TerrainErosion } from "../../plugin/index.js";
import { summarize, type BenchRecord } from "../src/records.js";
import { benchHeights } from "../src/workloads.js";

/** `runs` digs while `erosion` runs at its frame budget; three records. */
export async function editLatencyRecords(scene: Scene, erosion: TerrainErosion, size: number, runs: number, common: Pick<BenchRecord, "backend" | "size" | "brushRadius" | "threads"> & { budgetMs: number }, what: string): Promise<BenchRecord[]> {
    const frames: number[] = [];
    const milliseconds: number[] = [];
    const frameMs: number[] = [];
    let rendered = 0;
    let landed: { frames: number; ms: number; frameMs: number | null } | null = null;
    let started = 0;
    const counter = scene.onAfterRenderObservable.add(() => rendered++);
    const eroded = erosion.onPatchErodedObservable.add((event) => {
        if (event.operator === "edit" && !landed) landed = { frames: rendered, ms: performance.now() - started, frameMs: erosion.lastFrame.measuredMs };
    });
    erosion.setOptions({ maxCycles: 0 });
    erosion.start();
    try {
        for (let k = 0; k < runs + 1; k++) {
            const centre = new Vector3(((k % 3) - 1) * size * 0.25, 0, ((Math.floor(k / 3) % 3) - 1) * size * 0.25);
            landed = null;
            rendered = 0;
            started = performance.now();
            erosion.edits.dig(centre, 3, 3);
            const deadline = performance.now() + 120000;
            while (!landed && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
            const result = landed as { frames: number; ms: number; frameMs: number | null } | null;
            if (!result) throw new Error("Timed out waiting for a dig to land.");
            if (k === 0) continue; // the first warms up
            frames.push(result.frames);
            milliseconds.push(result.ms);
            if (result.frameMs !== null) frameMs.push(result.frameMs);
        }
    } finally {
        scene.onAfterRenderObservable.remove(counter);
        erosion.onPatchErodedObservable.remove(eroded);
        erosion.pause();
        await erosion.whenIdle();
    }
    const detail = `${what}, running at a ${common.budgetMs} ms budget: a dig (6 m wide, 3 m deep) at one of nine places, ${runs} digs`;
    const record = (kernel: string, unit: string, values: number[], measure: string): BenchRecord => ({ ...common, kernel, unit, ...summarize(values), runs: values.length, detail: `${detail}; ${measure}` });
    return [
        record("edit-latency", "frames", frames, "frames rendered from the call to the frame whose onPatchEroded reports the edit's batch (its exact rows on the mesh's CPU data)"),
        record("edit-latency-ms", "ms", milliseconds, "milliseconds from the call to that report"),
        ...(frameMs.length > 0 ? [record("edit-frame", "ms", frameMs, "the measured erosion time of the frame that applied the edit (lastFrame.measuredMs: the edit and the batches it shared the frame with)")] : []),
    ];
}

/** Side of the undo figures' ground: the first hour's (a newcomer's game at 129², the defaults). */
const UNDO_SIZE = 129;

/**
 * What an undo costs a game (`undo-empty-ms`, `-frames`; `undo-ms`, `-frames`): on its own
 * `UNDO_SIZE`² ground at the default options (frame budget 2 ms), running, `runs` times (after one
 * run to warm up): `undo()` with nothing to undo, then a dig (5 m wide, 3 m deep) that has reached
 * the mesh's CPU data undone; milliseconds and rendered frames from the call until it resolves
 * (the terrain then shows the run without the dig).
 */
export async function undoLatencyRecords(scene: Scene, backend: "webgpu" | "cpu", runs: number, common: Pick<BenchRecord, "backend">, what: string): Promise<BenchRecord[]> {
    const extent = { width: UNDO_SIZE - 1, height: UNDO_SIZE - 1 };
    const ground = createGroundFromHeights(`undo-${backend}`, fixedToHeights(benchHeights(UNDO_SIZE)), { columns: UNDO_SIZE, rows: UNDO_SIZE, extent }, scene);
    ground.isVisible = false;
    const erosion = new TerrainErosion({ backend });
    ground.addBehavior(erosion, true);
    let rendered = 0;
    const counter = scene.onAfterRenderObservable.add(() => rendered++);
    const afterFrames = async (count: number) => {
        const target = rendered + count;
        while (rendered < target) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const timed = async () => {
        const [frames, started] = [rendered, performance.now()];
        const taken = (await erosion.history.undo()).length;
        return { ms: performance.now() - started, frames: rendered - frames, taken };
    };
    const figures = { emptyMs: [] as number[], emptyFrames: [] as number[], ms: [] as number[], frames: [] as number[] };
    try {
        await erosion.whenReady();
        for (let k = 0; k < runs + 1; k++) {
            await afterFrames(4);
            const empty = await timed();
            if (empty.taken !== 0) throw new Error(`An undo with nothing to undo took back ${empty.taken} input(s).`);
            let landed = false;
            const eroded = erosion.onPatchErodedObservable.add((event) => (landed ||= event.operator === "edit"));
            erosion.edits.dig(new Vector3(((k % 3) - 1) * 32, 0, ((Math.floor(k / 3) % 3) - 1) * 32), 2.5, 3);
            const deadline = performance.now() + 120000;
            while (!landed && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
            erosion.onPatchErodedObservable.remove(eroded);
            if (!landed) throw new Error("Timed out waiting for a dig to land.");
            const real = await timed();
            if (real.taken !== 1) throw new Error(`The dig's undo took back ${real.taken} input(s).`);
            if (k === 0) continue; // the first warms up
            figures.emptyMs.push(empty.ms);
            figures.emptyFrames.push(empty.frames);
            figures.ms.push(real.ms);
            figures.frames.push(real.frames);
        }
    } finally {
        scene.onAfterRenderObservable.remove(counter);
        erosion.dispose();
        ground.dispose();
    }
    const budgetMs = erosion.options.frameBudgetMs;
    const detail = `${what}: its own ${UNDO_SIZE} x ${UNDO_SIZE} ground (1 m cells), default options (${budgetMs} ms budget), running; ${runs} runs after one to warm up`;
    const record = (kernel: string, unit: string, values: number[], measure: string): BenchRecord => ({
        ...common,
        ...{ kernel, size: UNDO_SIZE, brushRadius: null, threads: null, budgetMs, unit },
        ...summarize(values),
        runs: values.length,
        detail: `${detail}; ${measure}`,
    });
    return [
        record("undo-empty-ms", "ms", figures.emptyMs, "milliseconds from undo() with nothing to undo to its answer (an empty list)"),
        record("undo-empty-frames", "frames", figures.emptyFrames, "frames rendered from undo() with nothing to undo to its answer"),
        record("undo-ms", "ms", figures.ms, "milliseconds from undo() of a dig (2.5 m radius, 3 m deep) on the mesh's CPU data to its answer (the run without it)"),
        record("undo-frames", "frames", figures.frames, "frames rendered from that undo() to its answer"),
    ];
}
