/**
 * The sample's map colour scales: every two seconds the erosion material plugin fits its scales to
 * the maps so far (`fitScales()`, one readback), so the colours stay readable as erosion goes on.
 * A game would more often pick fixed scales.
 */
import type { TerrainErosionMaterialPlugin } from "../plugin/material/index.js";

/** Refits `plugin`'s scales every `intervalMs` until the returned function is called. */
export function keepScalesFitted(plugin: TerrainErosionMaterialPlugin, intervalMs = 2000): () => void {
    let busy = false;
    const refit = () => {
        if (busy) return;
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
