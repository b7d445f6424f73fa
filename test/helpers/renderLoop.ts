/**
 * A render loop for the browser tests' pages that draws at most `fps` frames a second. On
 * SwiftShader a page drawing at 60 frames a second kept the GPU process busy on both cores (a
 * 600 x 600 PBR ground: 1.8 cores while the test only waited), starving the suite running beside
 * it; the tests need frames, not 60 of them a second.
 */
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";

/** Runs `render` from the engine's render loop, at most `fps` times a second. */
export function runThrottledRenderLoop(engine: AbstractEngine, render: () => void, fps = 20): void {
    const interval = 1000 / fps;
    let last = -Infinity;
    engine.runRenderLoop(() => {
        const now = performance.now();
        // Within a millisecond of the interval counts: rAF ticks do not land exactly on it.
        if (now - last < interval - 1) return;
        last = now;
        render();
    });
}
