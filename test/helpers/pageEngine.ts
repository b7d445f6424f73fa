/**
 * The engine of a browser test page that draws what the test looks at: a square canvas at the
 * page's top left and, with `?engine=webgpu`, a WebGPU engine on it, else WebGL2 (its drawing
 * buffer kept, so a screenshot or a pixel read sees the last frame).
 */
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import { Engine } from "@babylonjs/core/Engines/engine.js";
import { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";

/** A `size` x `size` pixel canvas on the page, and the engine the page's query asks for. */
export async function createPageEngine(size: number): Promise<AbstractEngine> {
    const canvas = document.createElement("canvas");
    canvas.width = size;
    canvas.height = size;
    canvas.style.cssText = `position:absolute;left:0;top:0;width:${size}px;height:${size}px`;
    document.body.style.margin = "0";
    document.body.appendChild(canvas);
    if (new URLSearchParams(location.search).get("engine") === "webgpu") {
        const gpu = new WebGPUEngine(canvas, { antialias: false });
        await gpu.initAsync();
        return gpu;
    }
    return new Engine(canvas, false, { preserveDrawingBuffer: true });
}
