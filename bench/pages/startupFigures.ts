/**
 * The component's start on a page (issue 39's start-up figures): a fresh `TerrainErosion` attached
 * while the render loop runs, the first of its page (its kernels not yet compiled), timed from
 * the attach to its first batches on the mesh: `startup-ms`, the frames rendered meanwhile
 * (`startup-frames`), and the longest of those frames (`startup-longest-frame`, the interval
 * between two renders). The detail gives each phase's start (`startup`).
 */
import type { Scene } from "@babylonjs/core/scene.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { TerrainErosion } from "../../plugin/index.js";
import type { BenchRecord } from "../src/records.js";

/** Attaches a fresh component to `ground` with `options` and times its start; leaves it paused and attached. */
export async function startupRecords(scene: Scene, ground: GroundMesh, options: ConstructorParameters<typeof TerrainErosion>[0], common: Omit<BenchRecord, "kernel" | "unit" | "median" | "min" | "max" | "runs" | "detail">, what: string): Promise<{ erosion: TerrainErosion; records: BenchRecord[] }> {
    let frames = 0;
    let longest = 0;
    let last = performance.now();
    const observer = scene.onBeforeRenderObservable.add(() => {
        const now = performance.now();
        frames++;
        longest = Math.max(longest, now - last);
        last = now;
    });
    const erosion = new TerrainErosion({ ...options, autoStart: true });
    ground.addBehavior(erosion);
    await new Promise<void>((resolve, reject) => {
        const check = erosion.onStartupObservable.add((startup) => {
            if (startup.phase !== "running" && startup.phase !== "failed") return;
            erosion.onStartupObservable.remove(check);
            if (startup.phase === "failed") reject(new Error("the component did not start"));
            else resolve();
        });
    });
    erosion.pause();
    scene.onBeforeRenderObservable.remove(observer);
    const startup = erosion.startup!;
    const phases = startup.phases.map(({ phase, ms }) => `${phase} at ${ms.toFixed(0)} ms`).join(", ");
    const detail = `${what}: from the attach (the render loop running) to the first batches on the mesh (${phases}; ${startup.kernels} kernels compiled asynchronously)`;
    const record = (kernel: string, unit: string, value: number, about: string): BenchRecord => ({ ...common, kernel, unit, median: value, min: value, max: value, runs: 1, detail: `${detail}; ${about}` });
    const total = startup.phases.at(-1)!.ms;
    return {
        erosion,
        records: [
            record("startup-ms", "ms", total, "milliseconds to the first batches on the mesh"),
            record("startup-frames", "frames", frames, "frames rendered meanwhile"),
            record("startup-longest-frame", "ms", longest, `the longest of those frames (the interval between two renders; the median frame then was ${((total / Math.max(1, frames)) | 0)} ms on average)`),
        ],
    };
}
