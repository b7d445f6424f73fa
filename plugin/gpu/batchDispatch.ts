/**
 * What every operator's dispatches are recorded with, onto a `ComputeDevice`: the target of a
 * class's dispatches, a kernel's bindings (`record`), a grid pass over a band of its rows, the
 * tileable terrain's seam, and the fold the droplets and the rivers share (`routeAndFoldPasses`:
 * `routeHops` hops of the sediment routing, route_sediment and its odd twin alternating, the last
 * hop route_sediment_last, then apply_delta, fill_levels and copy_levels over the batch's extent).
 * Each operator's own order is in its file under `operators/` (droplets, rivers, thermal, water,
 * edits). On a tileable terrain every batch ends with tile_seam. Dispatches of one submission run
 * in order, so each batch reads the ground the previous one left, exactly as the CPU reference
 * does (`plugin/cpu/cpuBatchRunner.ts`, whose order this is).
 *
 * The batches of one class cannot reach each other (`plugin/core/independentClasses.ts`), so they
 * are recorded together: every dispatch covers all of them, one layer of workgroups (z) per batch,
 * each layer reading its own entry of the params array, and sized for the largest of them (the
 * kernels idle past their own batch's rectangle).
 *
 * Every kernel binds the simulation's buffers by the names it declares in `KERNELS`; a dispatch
 * names only what differs: the batch's params slot and, for kernels with a `mask` binding, whose mask.
 */
import type { BatchParams } from "../core/batchParams.js";
import type { OperatorMaskName as MaskName } from "../core/erosionState.js";
import type { ComputeBuffer, ComputeDevice, KernelBindings } from "./computeDevice.js";
import { DROPLET_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE, KERNELS, type KernelName } from "./kernelTable.js";
import type { SimulationBuffers } from "./simulationBuffers.js";

/** Workgroup counts of a droplet dispatch and the invocations per dispatch row. */
export interface DropletDispatch {
    readonly x: number;
    readonly y: number;
    readonly rowThreads: number;
}

/** Lays `count` invocations out in rows of at most `maxPerDimension` workgroups. */
export function planDropletDispatch(count: number, maxPerDimension: number): DropletDispatch {
    const groups = Math.ceil(count / DROPLET_WORKGROUP_SIZE);
    const x = Math.max(1, Math.min(groups, maxPerDimension));
    return { x, y: Math.max(1, Math.ceil(groups / x)), rowThreads: x * DROPLET_WORKGROUP_SIZE };
}

/** Workgroups covering `columns x rows` vertices (at least one each way). */
export function gridGroups(columns: number, rows: number): [number, number] {
    return [Math.max(1, Math.ceil(columns / GRID_WORKGROUP_SIZE)), Math.max(1, Math.ceil(rows / GRID_WORKGROUP_SIZE))];
}

/** Where a class's dispatches go: the device, the simulation's buffers, the params slot and what it holds. */
export interface DispatchTarget {
    readonly device: ComputeDevice;
    readonly buffers: SimulationBuffers;
    readonly slot: ComputeBuffer;
    /** The batches' params, in the slot's order (layer z of a dispatch runs entry z). */
    readonly entries: readonly BatchParams[];
}

/** The largest `measure` over the target's batches (what a dispatch covering all of them spans). */
export function largest(target: DispatchTarget, measure: (params: BatchParams) => number): number {
    return largestOf(target.entries, measure);
}

/** The largest `measure` over `entries`. */
export function largestOf(entries: readonly BatchParams[], measure: (params: BatchParams) => number): number {
    return Math.max(...entries.map(measure));
}

/**
 * Records `kernel` over `x * y` workgroups: `params` bound to the batch's slot, `mask` to the mask of
 * `mask` (or its stand-in), every other binding the kernel declares to the simulation's buffer of
 * that name unless `extra` names it (a ground's vertex buffers). `texture` goes to kernels that write one.
 */
export function record(
    target: DispatchTarget, kernel: KernelName, x: number, y: number, mask: MaskName | null = null, extra: KernelBindings = {}, texture?: unknown,
    layers = target.entries.length
): void {
    const bindings: KernelBindings = {};
    for (const name of KERNELS[kernel].bindings) {
        if (name === "params") {
            bindings.params = target.slot;
        } else if (name === "mask") {
            if (mask === null) {
                throw new Error(`Internal error: kernel ${kernel} binds a mask but its dispatch names none.`);
            }
            bindings.mask = target.buffers.mask(mask);
        } else {
            bindings[name] = extra[name] ?? target.buffers.bound(name);
        }
    }
    target.device.dispatch(kernel, bindings, x, y, layers, texture);
}

/**
 * One grid pass of a batch: `kernel` over `columns x rows` vertices from the pass's own first
 * row (its kernel's, from the batch's river rectangle or extent). A pass writes no vertex another
 * invocation of it reads (a dispatch runs its invocations in any order), so it may also run as
 * several dispatches over bands of its rows (`recordGridPass`'s `rowOffset`), in any cut: what
 * a whole-field batch in pieces does (`GpuErosionSimulation.runPieces`).
 */
export interface GridPass {
    readonly kernel: KernelName;
    readonly mask: MaskName | null;
    readonly columns: number;
    readonly rows: number;
}

/**
 * Records `pass` over rows `rowOffset .. rowOffset + rowCount - 1` of its own (all of them by
 * default). The target's params must carry the same `rowOffset` as their `dispatchOffset`
 * (the kernels add it to the dispatch's rows). A band that ends before the pass does must be whole
 * workgroup rows: the kernels idle only past the pass's end.
 */
export function recordGridPass(target: DispatchTarget, pass: GridPass, rowOffset = 0, rowCount = pass.rows - rowOffset): void {
    if (target.entries.some((params) => params.dispatchOffset !== rowOffset)) {
        throw new Error(`Internal error: a band of ${pass.kernel} from row ${rowOffset} recorded with params of another offset.`);
    }
    if (rowOffset % GRID_WORKGROUP_SIZE !== 0 || (rowOffset + rowCount < pass.rows && rowCount % GRID_WORKGROUP_SIZE !== 0)) {
        throw new Error(`Internal error: a band of ${pass.kernel} (rows ${rowOffset} + ${rowCount} of ${pass.rows}) is not whole workgroup rows.`);
    }
    const [x, y] = gridGroups(pass.columns, rowCount);
    record(target, pass.kernel, x, y, pass.mask);
}

/**
 * A tileable terrain's seam: its last column and row made equal to the first again. Once for the
 * whole class (one layer): it copies the whole seam, and two layers would count its changes twice.
 */
export function recordTileSeam(target: DispatchTarget): void {
    const { width, depth } = target.buffers;
    record(target, "tile_seam", Math.ceil((width + depth) / DROPLET_WORKGROUP_SIZE), 1, null, {}, undefined, 1);
}

/**
 * The hops of the sediment routing, then apply_delta, fill_levels and copy_levels, over the batch's
 * extent; what settles is scaled by the mask of the batch's operator.
 */
export function recordRouteAndFold(target: DispatchTarget, operator: "hydraulic" | "rivers"): void {
    for (const pass of routeAndFoldPasses(target.entries, operator)) recordGridPass(target, pass);
}

/** `recordRouteAndFold`'s passes. */
export function routeAndFoldPasses(entries: readonly BatchParams[], operator: "hydraulic" | "rivers"): GridPass[] {
    const columns = largestOf(entries, (p) => p.extentX1 - p.extentX0);
    const rows = largestOf(entries, (p) => p.extentY1 - p.extentY0);
    // One class, one operator, one set of options: every batch runs the same hops.
    const routeHops = entries[0].routeHops;
    const passes: GridPass[] = [];
    for (let hop = 1; hop <= routeHops; hop++) {
        const odd = hop % 2 === 0;
        const kernel = hop < routeHops ? (odd ? "route_sediment_odd" : "route_sediment") : odd ? "route_sediment_last_odd" : "route_sediment_last";
        passes.push({ kernel, mask: operator, columns, rows });
    }
    // apply_delta reads the uplift map for a river batch's uplift with the materials on.
    passes.push({ kernel: "apply_delta", mask: "uplift", columns, rows });
    for (const kernel of ["fill_levels", "copy_levels"] as const) {
        passes.push({ kernel, mask: null, columns, rows });
    }
    return passes;
}
