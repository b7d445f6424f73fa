/**
 * A droplet batch's parameters as the CPU droplet passes read them, and the path of the droplet in
 * progress (`erodeDroplets.ts` says how the passes split the work).
 */
import type { BatchParams } from "../batchParams.js";
import { FIXED_ONE, mulQ16 } from "../fixedPoint.js";
import { BrushLayout } from "./dropletBrush.js";

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
    /** A local event's disc (Q16 cells), or null to spawn over the rectangle. */
    public readonly disc: { centreX: number; centreY: number; radius: number } | null;
    /** The brush, or null for radius 0 (bilinear cuts). */
    public readonly brush: BrushLayout | null;
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
        this.disc = params.spawnDisc !== 0 ? { centreX: params.discCentreX, centreY: params.discCentreY, radius: params.discRadius } : null;
        this.brush = params.brushCount > 0 ? new BrushLayout(brush, params.brushCount, params.width) : null;
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
