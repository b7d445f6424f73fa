/**
 * The sample's map colour scales: every two seconds the erosion material plugin fits its scales to
 * the maps so far (`fitScales()`, one readback), so the colours stay readable as erosion goes on.
 * A game would more often pick fixed scales. A lockstep player behind its horizon skips the refit:
 * the readback waits for the frames in flight, and on a slow WebGPU page held its frames for most of
 * each two seconds (catching up ran at a tenth of its pace); it refits once it stands at the horizon.
 */
import type { TerrainErosionMaterialPlugin } from "../plugin/material/index.js";

/** Refits `plugin`'s scales every `intervalMs`, except while `behind()` says the page is catching up, until the returned function is called. */
export function keepScalesFitted(plugin: TerrainErosionMaterialPlugin, intervalMs = 2000, behind: () => boolean = () => false): () => void {
    let busy = false;
    const refit = () => {
        if (busy || behind()) return;
        busy = true;
        plugin
            .fitScales()
            .catch(() => undefined)
            .finally(() => (busy = false));
    };
    void plugin.whenReady.then(refit);
    const timer = setInterval(refit, intervalMs);
    return () => clearInterval(timer);
}
