/**
 * Passes 2 and 3 of the CPU droplet kernel (`erodeDroplets.ts`): the droplet's speed and carrying
 * capacity along the path the walk traced, then what each step erodes and deposits. Mirrors the
 * capacity, erosion, deposition and speed of `shaders/droplets/erode_droplets.wgsl`.
 */
import { MAX_SHARE_SHIFT } from "../../core/batchParams.js";
import { SATURATION_LIMIT, mulQ16, mulQ16Sat, sqrtQ16 } from "../../core/fixedPoint.js";
import { addBilinear, addBilinearMasked } from "./bilinear.js";
import { cutWithBrush, cutWithBrushMasked } from "./dropletBrush.js";
import type { DropletKernel } from "./dropletKernel.js";

// Math's functions as module constants: a global lookup of `Math` is twenty times slower in a
// vm context (jest's test environment, some worker sandboxes) and these run per droplet step.
const { abs, max, min } = Math;

/** Pass 2: the droplet's carrying capacity at each step of its path, from its speed and water there. */
export function capacityAlongPath(kernel: DropletKernel): void {
    const saturationLimit = SATURATION_LIMIT | 0;
    const minSlope = kernel.minSlope | 0;
    const capacity = kernel.capacity | 0;
    const share = kernel.share | 0;
    const gravity = kernel.gravity | 0;
    const erodingSteps = kernel.erodingSteps | 0;
    const waterAt = kernel.waterAt;
    const pathDrop = kernel.pathDrop;
    const pathCarry = kernel.pathCarry;
    let speed = kernel.initialSpeed | 0;
    for (let step = 0; step < erodingSteps; step++) {
        const drop = pathDrop[step];
        // 0 - drop rather than -drop: the same integer, but never -0, which V8 would leave the
        // 32-bit integer path for (a deoptimisation on the first flat step).
        let carry = mulQ16Sat(max(0 - drop, minSlope), speed);
        carry = mulQ16Sat(carry, waterAt[step]);
        carry = mulQ16Sat(carry, capacity);
        pathCarry[step] = mulQ16(carry, share);

        // Physical sign: descending (drop < 0) speeds the droplet up; the widely copied droplet
        // pseudocode has it backwards. Speed^2 is floored at zero (docs/simulation.md, "Sources").
        let speedSquared = mulQ16Sat(speed, speed);
        const gained = mulQ16Sat(abs(drop), gravity);
        speedSquared = drop < 0 ? min(speedSquared + gained, saturationLimit) : max(speedSquared - gained, 0);
        speed = sqrtQ16(speedSquared);
    }
}

/** Pass 3: erodes and deposits along the droplet's path; returns the sediment it still carries. */
export function erodeAlongPath(kernel: DropletKernel, delta: Int32Array): number {
    const maxShareShift = MAX_SHARE_SHIFT | 0;
    const width = kernel.width | 0;
    const depth = kernel.depth | 0;
    const share = kernel.share | 0;
    const erosion = kernel.erosion | 0;
    const deposition = kernel.deposition | 0;
    const stepCap = kernel.stepCap | 0;
    const brushRadius = kernel.brushRadius | 0;
    const brush = kernel.brush;
    const hasBrush = kernel.hasBrush;
    const erodingSteps = kernel.erodingSteps | 0;
    const pathX = kernel.pathX;
    const pathY = kernel.pathY;
    const pathDrop = kernel.pathDrop;
    const pathCarry = kernel.pathCarry;
    let sediment = 0;
    for (let step = 0; step < erodingSteps; step++) {
        const drop = pathDrop[step];
        const carry = pathCarry[step];
        // What the step lays down (sign 1) or picks up bilinearly (sign -1).
        let amount = 0;
        let sign = 1;
        if (sediment > carry || drop > 0) {
            // Deposit: fill (at most a quarter of) the rise, or lay down part of the surplus.
            amount = drop > 0 ? min(sediment, mulQ16(drop >> maxShareShift, share)) : mulQ16(sediment - carry, deposition);
            amount = min(amount, stepCap);
            sediment -= amount > 0 ? amount : 0;
        } else {
            // Erode: pick up part of the deficit, never more than a quarter of the drop.
            amount = min(mulQ16(carry - sediment, erosion), mulQ16(-drop >> maxShareShift, share));
            amount = min(amount, stepCap);
            if (amount > 0 && hasBrush) {
                sediment += cutWithBrush(delta, width, depth, pathX[step], pathY[step], amount, brushRadius, brush);
                amount = 0; // done
            } else {
                sediment += amount > 0 ? amount : 0;
                sign = -1;
            }
        }
        if (amount > 0) {
            addBilinear(delta, width, pathX[step], pathY[step], amount, sign);
        }
    }
    return sediment;
}

/**
 * Pass 3 under a mask (docs/simulation.md, "Masks"): each part a step cuts or lays down at a vertex is
 * scaled by the mask there, and what the mask declines stays where it was, in the ground or in the
 * droplet, so a droplet carries its load across ground the mask holds out. The parts are computed
 * exactly as without a mask, so a mask of ones (65536 everywhere) changes nothing. Mirrors the
 * masked branches of `erode_droplets.wgsl`.
 */
export function erodeAlongPathMasked(kernel: DropletKernel, delta: Int32Array, mask: Int32Array): number {
    // Integer locals, as in `erodeAlongPath` (see erodeDroplets.ts for why).
    const maxShareShift = MAX_SHARE_SHIFT | 0;
    const width = kernel.width | 0;
    const depth = kernel.depth | 0;
    const share = kernel.share | 0;
    const erosion = kernel.erosion | 0;
    const deposition = kernel.deposition | 0;
    const stepCap = kernel.stepCap | 0;
    const brushRadius = kernel.brushRadius | 0;
    const brush = kernel.brush;
    const hasBrush = kernel.hasBrush;
    const erodingSteps = kernel.erodingSteps | 0;
    const pathX = kernel.pathX;
    const pathY = kernel.pathY;
    const pathDrop = kernel.pathDrop;
    const pathCarry = kernel.pathCarry;
    let sediment = 0;
    for (let step = 0; step < erodingSteps; step++) {
        const drop = pathDrop[step];
        const carry = pathCarry[step];
        if (sediment > carry || drop > 0) {
            let amount = drop > 0 ? min(sediment, mulQ16(drop >> maxShareShift, share)) : mulQ16(sediment - carry, deposition);
            amount = min(amount, stepCap);
            if (amount > 0) {
                sediment -= addBilinearMasked(delta, mask, width, pathX[step], pathY[step], amount, 1);
            }
        } else {
            let amount = min(mulQ16(carry - sediment, erosion), mulQ16(-drop >> maxShareShift, share));
            amount = min(amount, stepCap);
            if (amount > 0) {
                sediment += !hasBrush
                    ? addBilinearMasked(delta, mask, width, pathX[step], pathY[step], amount, -1)
                    : cutWithBrushMasked(delta, mask, width, depth, pathX[step], pathY[step], amount, brushRadius, brush);
            }
        }
    }
    return sediment;
}
