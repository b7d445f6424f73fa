/**
 * The sample's size on a software renderer: SwiftShader (Chrome without a GPU, headless Chromium)
 * or llvmpipe run the default 513 x 513 terrain at a frame a second or less, and a live cycle then
 * takes minutes. There the sample picks a light terrain by itself unless the page asks for a size.
 */
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";

/**
 * Vertices per side, droplets per batch and the most frames a second the sample draws on a
 * software renderer (drawing leaves the erosion, which runs on the same CPU, its share of it).
 */
export const LIGHT_TERRAIN = { size: 129, droplets: 256, fps: 20 } as const;

const SOFTWARE = /swiftshader|llvmpipe|softpipe|software|basic render driver/i;

/** The renderer's name when it is a software one (WebGPU adapter or WebGL renderer), else null. */
export function softwareRenderer(engine: AbstractEngine): string | null {
    // WebGPU: the adapter's vendor, architecture and description; WebGL: the (unmasked) renderer.
    // Both engines have getInfo(); AbstractEngine does not declare it.
    const info = (engine as { getInfo?(): { vendor?: string; renderer?: string; version?: string } }).getInfo?.() ?? {};
    const names = [info.vendor, info.renderer, info.version].filter((name): name is string => typeof name === "string");
    const found = names.find((name) => SOFTWARE.test(name));
    return found ?? null;
}
