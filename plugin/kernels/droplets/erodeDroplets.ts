/**
 * CPU mirror of `shaders/droplets/erode_droplets.wgsl`: one batch of droplets over one patch.
 *
 * Every droplet reads the heights as they stood when the batch began and adds its changes into
 * `delta` (fixed point); `clipDelta` and `applyDelta` fold them in afterwards. Integer addition
 * commutes, so the result does not depend on the order droplets run in, here or on the GPU, nor on
 * how a batch's droplets are split between threads (`firstDroplet`, `endDroplet`).
 *
 * What matches the WGSL: every integer each droplet writes, and the names and clamps of the
 * arithmetic (the golden fingerprints and the GPU parity tests check the integers; see the WGSL for
 * the reasoning behind each rule). What does not: the structure, which is written for V8. The WGSL
 * runs one droplet per invocation and does each step's walk, capacity and erosion together; here
 * - `spawnInTileOrder` (`dropletSpawn.ts`) places the whole batch's droplets first, and runs them in
 *   the order of the tile they start in;
 * - each droplet then goes through three passes, each a loop over its steps:
 *   1. `walkDroplet` (`dropletWalk.ts`): where the droplet goes. The direction depends on the
 *      heights and the previous direction only, never on the droplet's water, speed or sediment,
 *      so the whole path (start of each step and its drop) can be traced first. A step hands the
 *      corner heights it sampled at its end to the next step, where the WGSL reads them again.
 *   2. `capacityAlongPath` (`dropletErosion.ts`): speed and carrying capacity at each step. They
 *      depend on the drops only, and water follows the same sequence on every walk
 *      (`DropletKernel.waterAt`, worked out once per batch, where the WGSL multiplies it each step).
 *   3. `erodeAlongPath` (`dropletErosion.ts`): erosion and deposition, the only part that depends
 *      on the sediment. The brush (`dropletBrush.ts`) cuts four equal-weight entries at a time where
 *      the WGSL walks the table entry by entry, and the masked variants are functions of their own
 *      where the WGSL tests `hydraulicMasked` inside one.
 * - `mulQ16` and `mulQ16Sat` compute the WGSL's integers with `Math.imul` and doubles rather than
 *   16-bit pieces (`plugin/core/fixedPoint.ts`).
 * A step is counted once, in pass 1, as the WGSL counts it.
 *
 * Where the thread can compile it, the batch runs on WebAssembly instead (`dropletBatchWasm.ts`,
 * `dropletBatch.as.ts`: these passes rule for rule, in one loop a step), with the same
 * integers; these passes stay the reference it mirrors and the fallback. They were the CPU
 * backend's hot loop until then, so they are written for V8. Measured with `npm run bench`'s
 * setup (one core of a 2-core AMD EPYC (Zen 4) VM, Node 20, the kernel in an esbuild bundle, 512^2
 * noise terrain, one 16384-droplet batch over the whole field), in droplet steps per second with
 * brush radius 3 / 0, before -> after each change, in the order they were made (best of 10 runs on
 * a shared machine; repeat runs agree within about 5%):
 * - `mulQ16` uses the WGSL's 16-bit pieces with `Math.imul`, so values stay 32-bit integers
 *   instead of going through a double multiply, divide and floor: 4.6 -> 5.2 M / 6.2 -> 7.6 M.
 * - A step samples the next position's corner heights once and hands them to the next step, where
 *   the WGSL reads them again: 5.2 -> 5.5 M / 7.6 -> 8.0 M. Handing on the height there as well
 *   (later, once the passes below were in): 7.5 -> 8.7 M / 10.0 -> 11.7 M.
 * - Brush cuts by equal-weight groups and twin pairs (`BrushLayout`): 5.6 -> 8.2 M (radius 3).
 * - The three passes (the split alone changed nothing measurable; it is what the next two build on).
 * - Parameters and module constants as 32-bit integer locals (`| 0`) at the top of each pass: a
 *   value read from an object stays a tagged value that V8 re-checks at every use in a loop, and a
 *   bundler turns a module constant into a `var` that is reloaded at every use (pass 1 alone: 12.5
 *   -> 14.2 M; radius 0: 8.3 -> 10.0 M).
 * - Three functions rather than one: V8 stops inlining into a function once it has inlined about
 *   900 bytes of bytecode, and the single loop had run past that, leaving `mulQ16`, `addBilinear`
 *   and the brush as calls: 8.7 -> 9.0 M / 11.7 -> 13.0 M.
 * - Brush quads (four entries of one weight per loop iteration): 8.6 -> 9.5 M (radius 3).
 * - Droplets in the order of the tile they spawn in (`spawnInTileOrder`), so that consecutive walks
 *   reuse cached heights and deltas: 9.5 -> 10.1 M at 512^2, 7.0 -> 10.2 M at 1024^2.
 * - The masked pass 3 (`erodeAlongPathMasked`) with the same integer locals, and its brush cut by
 *   quads inside the field (`cutWithBrushMasked`: each quad's part once, then each entry's mask):
 *   8.4 -> 11.9 M at 512^2, radius 3, with the bench's mask (half the field held out), where the
 *   unmasked walk ran 14.2 M in the same process (0.59x -> 0.84x).
 * - Tried and dropped: walking droplet n + 1 in the same loop as eroding droplet n (to overlap
 *   their dependency chains), branch-free normalisation through a table of powers of two, and
 *   unsigned bounds checks; none was faster.
 * - The batch on WebAssembly (2026-12-01, the bench's full run, one core): 10.4 -> 13.4 M at 512^2,
 *   radius 3 (0.71x -> 0.90x the JS walk beside it), 13.1 -> 15.8 M radius 0, masked 8.7 -> 11.0
 *   M; in eight fresh processes 12.2-13.2 M, 0.90x-1.02x the JS walk run just before each. On the
 *   way (a fresh process, radius 3): three passes as here 12.3 M; one loop a step, as the WGSL,
 *   which lets the processor overlap the walk's chain with the speed's square roots, 12.9 M; the
 *   brush's unmasked cut without the mask's test and sum, 12.0 -> 13.2 M. Masked, the change and
 *   the mask side by side in one grid (a cut reads the mask from the cache line it writes the
 *   change to), the masked walk over the unmasked run just before it 0.78x -> 0.83x at 1024².
 * None of this changes a single integer: the golden fingerprints and the GPU parity tests pin the
 * results, and the CPU reference stays the definition of the contract.
 */
import { COUNTER_DROPLET_STEPS, COUNTER_OUTFLOW } from "../../core/counters.js";
import type { BatchParams } from "../../core/batchParams.js";
import { addBilinear } from "./bilinear.js";
import { capacityAlongPath, erodeAlongPath, erodeAlongPathMasked } from "./dropletErosion.js";
import { erodeAlongPathMaterials, MaterialCuts } from "./dropletMaterials.js";
import { HARDNESS_ONE, type MaterialGrids } from "../../core/materials.js";
import { uniformHardness } from "../fold/soilFold.js";
import { erodeDropletsWasm } from "./dropletBatchWasm.js";
import { DropletKernel } from "./dropletKernel.js";
import { spawnInTileOrder } from "./dropletSpawn.js";
import { walkDroplet } from "./dropletWalk.js";

/**
 * Runs droplets `firstDroplet .. endDroplet - 1` of a batch (all of them by default).
 * @param params the batch's parameters
 * @param heights fixed-point heights, read only
 * @param delta fixed-point change accumulator, added to
 * @param brush brush table (`buildBrush`), empty for radius 0
 * @param counters counters, added to (`COUNTER_*` indices)
 * @param water per-batch water visits, added to (each step counts 1 at the vertex nearest where it starts), or null
 * @param mask per-vertex Q16 mask scaling what each step cuts and lays down at each vertex, or null
 * @param materialGrids the soil and hardness, which each cut goes through when the batch runs the materials (`params.materials`), or null
 */
export function erodeDroplets(
    params: BatchParams, heights: Int32Array, delta: Int32Array, brush: Int32Array, counters: Float64Array, firstDroplet = 0, endDroplet = params.dropletCount,
    water: Int32Array | null = null, mask: Int32Array | null = null, materialGrids: MaterialGrids | null = null
): void {
    const kernel = new DropletKernel(params, brush);
    const depositAtEnd = params.depositAtEnd !== 0;
    const spawns = spawnInTileOrder(kernel, firstDroplet, endDroplet);
    // At hardness 1 everywhere `materialCut` is the cut itself (`rockTaken` at 256): the droplets
    // then cut as without the materials (the soil follows in the fold, `applyDelta`).
    const cuts =
        params.materials !== 0 && materialGrids && uniformHardness(params, materialGrids) !== HARDNESS_ONE
            ? new MaterialCuts(params, heights, materialGrids, mask)
            : null;
    if (erodeDropletsWasm(kernel, spawns, heights, delta, water, mask, depositAtEnd, counters, cuts)) {
        return;
    }
    let totalSteps = 0;
    let outflow = 0;
    for (let index = 0; index < spawns.x.length; index++) {
        walkDroplet(kernel, heights, spawns.x[index], spawns.y[index], water);
        capacityAlongPath(kernel);
        const sediment =
            cuts !== null
                ? erodeAlongPathMaterials(kernel, delta, mask, cuts)
                : mask === null
                  ? erodeAlongPath(kernel, delta)
                  : erodeAlongPathMasked(kernel, delta, mask);
        totalSteps += kernel.steps;
        if (kernel.leftField || !depositAtEnd) {
            outflow += sediment;
        } else if (sediment > 0) {
            addBilinear(delta, kernel.width, kernel.endX, kernel.endY, sediment, 1);
        }
    }
    counters[COUNTER_DROPLET_STEPS] += totalSteps;
    counters[COUNTER_OUTFLOW] += outflow;
}
