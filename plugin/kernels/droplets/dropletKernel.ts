/**
 * A droplet batch's parameters as the CPU droplet passes read them, and the path of the droplet in
 * progress (`erodeDroplets.ts` says how the passes split the work).
 */
import type { BatchParams } from "../../core/batchParams.js";
import { FIXED_ONE, mulQ16 } from "../../core/fixedPoint.js";
import { BrushLayout } from "./dropletBrush.js";

/** A brush of the centre entry alone (dx, dy, weight), standing for radius 0's "no brush". */
const CENTRE_ONLY = Int32Array.of(0, 0, FIXED_ONE);

/** A batch's parameters as the three passes read them, and the path of the droplet in progress. */
export class DropletKernel {
    public readonly width: number;
    public readonly depth: number;
    public readonly spawnX0: number;
    public readonly spawnY0: number;
    public readonly spanX: number;
    public readonly spanY: number;
    public readonly seed: number;
    public readonly cycle: number;
    public readonly patchIndex: number;
    public readonly inertia: number;
    public readonly capacity: number;
    public readonly minSlope: number;
    public readonly erosion: number;
    public readonly deposition: number;
    public readonly gravity: number;
    public readonly share: number;
    public readonly stepCap: number;
    public readonly initialSpeed: number;
    public readonly brushRadius: number;
    /** Whether droplets spawn over a local event's disc (`disc`) rather than the rectangle. */
    public readonly hasDisc: boolean;
    /** A local event's disc (Q16 cells); all zero without one. */
    public readonly disc: { centreX: number; centreY: number; radius: number };
    /** Whether the batch cuts with the brush (`brush`) rather than bilinearly (radius 0). */
    public readonly hasBrush: boolean;
    /** The brush; the centre entry alone for radius 0. */
    public readonly brush: BrushLayout;
    /**
     * Water during step k. Water follows the same sequence on every walk (initialWater, then x
     * waterRetained each step), so it is worked out once per batch.
     */
    public readonly waterAt: Int32Array;
    /** Steps after which the WGSL's `water < minWater` check ends every walk (at most maxSteps). */
    public readonly walkLimit: number;

    // The droplet in progress. Per step that goes on to erode or deposit: where it starts, its
    // drop (negative going downhill) and the droplet's carrying capacity.
    public readonly pathX: Int32Array;
    public readonly pathY: Int32Array;
    public readonly pathDrop: Int32Array;
    public readonly pathCarry: Int32Array;
    /** Steps taken (as the WGSL counts them). */
    public steps = 0;
    /** Steps that go on to erode or deposit (the last one does not when the droplet left the field). */
    public erodingSteps = 0;
    public leftField = false;
    /** Where the walk ended. */
    public endX = 0;
    public endY = 0;

    constructor(params: BatchParams, brush: Int32Array) {
        this.width = params.width;
        this.depth = params.depth;
        this.spawnX0 = params.spawnX0 * FIXED_ONE;
        this.spawnY0 = params.spawnY0 * FIXED_ONE;
        this.spanX = (params.spawnX1 - params.spawnX0) * FIXED_ONE;
        this.spanY = (params.spawnY1 - params.spawnY0) * FIXED_ONE;
        this.seed = params.seed >>> 0;
        this.cycle = params.cycle >>> 0;
        this.patchIndex = params.patchIndex >>> 0;
        this.inertia = params.inertia;
        this.capacity = params.capacity;
        this.minSlope = params.minSlope;
        this.erosion = params.erosion;
        this.deposition = params.deposition;
        this.gravity = params.gravity;
        this.share = params.share;
        this.stepCap = params.stepCap;
        this.initialSpeed = params.initialSpeed;
        this.brushRadius = params.brushRadius;
        // Every field always holds the same kind of value (no null for "none"). A field that is null
        // in one batch and an object in the next changes the kernel's hidden class, and V8 throws
        // away the passes compiled for the old one (--trace-deopt: "code dependencies", then "weak
        // objects" when a garbage collection frees it). When that lands inside a pass's loop the pass
        // re-enters through on-stack replacement, a slower compile kept for the rest of the process:
        // with radius-0 and radius-3 batches mixed (bench setup, 512^2), the walk ran 11.4-11.6 M
        // steps/s in 4 of 14 processes against 13.4-13.9 M, the slow ones exactly those where
        // --trace-opt showed erodeAlongPath compiled "OSR". With these fields: none slow in 10.
        this.hasDisc = params.spawnDisc !== 0;
        this.disc = { centreX: params.discCentreX, centreY: params.discCentreY, radius: params.discRadius };
        this.hasBrush = params.brushCount > 0;
        this.brush = this.hasBrush ? new BrushLayout(brush, params.brushCount, params.width) : new BrushLayout(CENTRE_ONLY, 1, params.width);
        const maxSteps = params.maxSteps;
        this.waterAt = new Int32Array(maxSteps);
        let walkLimit = 0;
        for (let water = params.initialWater; walkLimit < maxSteps; ) {
            this.waterAt[walkLimit++] = water;
            water = mulQ16(water, params.waterRetained);
            if (water < params.minWater) {
                break;
            }
        }
        this.walkLimit = walkLimit;
        this.pathX = new Int32Array(maxSteps);
        this.pathY = new Int32Array(maxSteps);
        this.pathDrop = new Int32Array(maxSteps);
        this.pathCarry = new Int32Array(maxSteps);
    }
}
