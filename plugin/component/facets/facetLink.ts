/**
 * What a facet of the behavior (`erosion.edits`, `.history`, `.lockstep`, `.maps`) holds of its
 * controller: the runner while one is bound, and the controller's two guards, which name the
 * operation (`TerrainErosion.edits.dig()`) and say why it cannot run when nothing is bound. A facet
 * is built once with its controller and outlives attaches: it always reaches the runner bound now.
 */
import type { ErosionRunner } from "../erosionRunner.js";

/** A facet's way to its controller's runner. */
export interface FacetLink {
    /** The runner while bound, else null. */
    readonly runner: ErosionRunner | null;
    /** The runner, for an operation that needs it; throws naming the operation when none is bound. */
    live(operation: string): ErosionRunner;
    /** `use(runner)`, or a rejection naming the operation when none is bound. */
    withRunner<T>(operation: string, use: (runner: ErosionRunner) => Promise<T>): Promise<T>;
}
