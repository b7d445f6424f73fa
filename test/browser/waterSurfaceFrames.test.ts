/**
 * The sample's water surface over a running cycle, frame after frame (issue 61: on WebGPU the
 * surface flickered while eroding; mid-step the shallowWater texture showed velocities of hundreds
 * of cells a step, read from pipes that were raw or limited against the depth of another step, and
 * the surface's foam came and went on most wet vertices). The texture is read back after every
 * rendered frame while the water runs through three steps: in every frame no velocity passes a cell
 * a step, and between consecutive frames the surface and the depth move by less than half a cell
 * anywhere and the foam comes or goes on few wet vertices.
 */
import { openSample } from "../helpers/sample.js";

/** The most frames read back (SwiftShader draws a few a second; a water batch takes one or more). */
const MAX_FRAMES = 400;

interface FramesResult {
    readonly cellSize: number;
    /** Vertices wet (depth over the surface's `minDepth`) in the first frame. */
    readonly wet: number;
    /** Frames read back, and how many of them stood inside a water step (its pipes changed, its depth not yet). */
    readonly frames: number;
    readonly insideStep: number;
    /** Frames whose surface differed from the frame before. */
    readonly changes: number;
    /** The largest velocity component in any frame (local units a water step). */
    readonly fastest: number;
    /** Between consecutive frames: the largest change of a wet vertex's surface and depth (local units), and of the wet vertices whose foam came or went. */
    readonly maxSurfaceChange: number;
    readonly maxDepthChange: number;
    readonly maxFoamChanges: number;
}

// The CPU backend's worker runs a 65² field's water batches in well under a millisecond, and on a
// software renderer (frames of a few hundred ms) the sample's 4 ms budget took a whole step a
// frame (3 frames over the run, none inside a step): there the run takes the least budget, about a
// batch a frame, so that frames stand inside steps as a game's do at 60 frames a second. WebGPU's
// page too: on a loaded host its frames came slower, erosion's share of each grew with them
// (`framePace.ts`) and 7 frames covered the run, 4 inside a step.
describe.each([
    ["WebGPU (SwiftShader)", "?water=1&size=65&droplets=128", 0.05],
    ["WebGL2, CPU backend in a worker", "?water=1&size=65&droplets=128&engine=webgl2", 0.05],
])("the sample's water surface on %s", (_name, query, frameBudgetMs) => {
    it("changes smoothly from frame to frame over a running cycle: velocity within a cell a step, surface and depth by under half a cell a frame, foam steady", async () => {
        const sample = await openSample(query);
        try {
            const result: FramesResult = await sample.page.evaluate(async ({ maxFrames, frameBudgetMs }) => {
                type Stamp = { cycle: number; batch: number };
                const { erosion, engine, water } = (window as any).sample;
                await water.surface().whenReady;
                erosion.pause();
                await erosion.runCycles(2);
                if (frameBudgetMs !== null) erosion.setOptions({ frameBudgetMs });
                const texture: { readPixels(): Promise<ArrayBufferView> | ArrayBufferView | null } = await erosion.maps.getMapTexture("shallowWater");
                const cellSize: number = erosion.maps.fieldCellSize;
                const field = erosion.maps.getFieldGridTransform();
                const batchesPerPass = Math.ceil((field.width - 1) / erosion.options.patchSize) * Math.ceil((field.depth - 1) / erosion.options.patchSize);
                const stepBatches = 7 * batchesPerPass;
                const shots: { stamp: Stamp; pixels: Promise<Float32Array> }[] = [];
                const observer = engine.onEndFrameObservable.add(() => {
                    if (shots.length >= maxFrames) return;
                    const read = texture.readPixels();
                    shots.push({ stamp: erosion.lockstep.stamp, pixels: Promise.resolve(read).then((view) => new Float32Array((view as Float32Array).buffer.slice(0))) });
                });
                erosion.start();
                // Three water steps of the cycle, and the frames their rows take to land.
                const until = 3 * stepBatches + 2 * batchesPerPass;
                const started = performance.now();
                while (shots.length < maxFrames && erosion.lockstep.stamp.batch < until && performance.now() - started < 240000) await new Promise((resolve) => setTimeout(resolve, 20));
                engine.onEndFrameObservable.remove(observer);
                erosion.pause();
                const pictures = await Promise.all(shots.map((shot) => shot.pixels));
                // The surface's defaults: shown from 0.03 cells deep, foam from 0.75 of 1.5 cells a step.
                const minDepth = 0.03 * cellSize;
                const foamy = (p: Float32Array, i: number) => Math.hypot(p[i * 4 + 1], p[i * 4 + 2]) > 0.75 * 1.5 * cellSize;
                let fastest = 0;
                let wet = 0;
                let insideStep = 0;
                let changes = 0;
                let maxSurfaceChange = 0;
                let maxDepthChange = 0;
                let maxFoamChanges = 0;
                for (let k = 0; k < pictures.length; k++) {
                    const now = pictures[k];
                    const cells = now.length / 4;
                    for (let i = 0; i < cells; i++) fastest = Math.max(fastest, Math.abs(now[i * 4 + 1]), Math.abs(now[i * 4 + 2]));
                    // Past a step's flux pass and before its depth pass (passes 1 to 5 of 7).
                    const position = shots[k].stamp.batch % stepBatches;
                    if (shots[k].stamp.batch < 16 * stepBatches && position >= batchesPerPass && position <= 5 * batchesPerPass) insideStep++;
                    if (k === 0) {
                        for (let i = 0; i < cells; i++) if (now[i * 4] >= minDepth) wet++;
                        continue;
                    }
                    const before = pictures[k - 1];
                    let foamChanges = 0;
                    let changed = false;
                    for (let i = 0; i < cells; i++) {
                        if (now[i * 4 + 3] !== before[i * 4 + 3]) changed = true;
                        if (before[i * 4] < minDepth && now[i * 4] < minDepth) continue;
                        maxSurfaceChange = Math.max(maxSurfaceChange, Math.abs(now[i * 4 + 3] - before[i * 4 + 3]));
                        maxDepthChange = Math.max(maxDepthChange, Math.abs(now[i * 4] - before[i * 4]));
                        if (foamy(now, i) !== foamy(before, i)) foamChanges++;
                    }
                    if (changed) changes++;
                    maxFoamChanges = Math.max(maxFoamChanges, foamChanges);
                }
                return { cellSize, wet, frames: pictures.length, insideStep, changes, fastest, maxSurfaceChange, maxDepthChange, maxFoamChanges };
            }, { maxFrames: MAX_FRAMES, frameBudgetMs });
            console.log(`${_name}: ${JSON.stringify(result)}`);
            // The frames ran the water: wet ground, frames inside steps, the surface moving.
            expect(result.wet).toBeGreaterThan(200);
            expect(result.insideStep).toBeGreaterThan(5);
            // The surface moves at each step's depth pass: three in the run, the last of which may land
            // after the stamp passed the run's end and the frames stopped (2 seen in a loaded run).
            expect(result.changes).toBeGreaterThanOrEqual(2);
            // Every frame: no velocity component over a cell a step (they were hundreds mid-step).
            expect(result.fastest).toBeGreaterThan(0.1 * result.cellSize);
            expect(result.fastest).toBeLessThanOrEqual(result.cellSize);
            // Consecutive frames: the surface and depth move by under half a cell, and the foam comes or
            // goes on at most 5% of the wet vertices (before: most of them, on every frame inside a step).
            expect(result.maxSurfaceChange).toBeLessThan(0.5 * result.cellSize);
            expect(result.maxDepthChange).toBeLessThan(0.5 * result.cellSize);
            expect(result.maxFoamChanges).toBeLessThanOrEqual(Math.ceil(0.05 * result.wet));
            expect(sample.errors).toEqual([]);
        } finally {
            await sample.close();
        }
    });
});
