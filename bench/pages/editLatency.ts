/**
 * The latency of a ground edit on a running component (`edit-latency`, frames; `edit-latency-ms`):
 * from the call (`dig`, a pit 6 m wide and 3 m deep at one of nine places) to the frame whose
 * `onPatchEroded` reports the edit's batch, i.e. its exact rows on the mesh's CPU data (on WebGPU
 * its vertex buffers were written a frame earlier at most); and what that frame cost
 * (`edit-frame`, ms, `lastFrame.measuredMs`: the edit and the erosion batches it shared the frame
 * with). Shared by the WebGPU page (benchGpu.ts) and the CPU backend's (benchWebgl.ts).
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { TerrainErosion } from "../../plugin/index.js";
import { summarize, type BenchRecord } from "../src/records.js";

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
            erosion.dig(centre, 3, 3);
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
