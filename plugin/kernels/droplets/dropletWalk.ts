/**
 * Pass 1 of the CPU droplet kernel (`erodeDroplets.ts`): where a droplet goes. Mirrors the walk of
 * `shaders/droplets/erode_droplets.wgsl` (gradient, direction, normalisation, the step, the exits). The
 * direction depends on the heights and the previous direction only, never on the droplet's water,
 * speed or sediment, so the whole path can be traced before anything is eroded.
 */
import { GRADIENT_LIMIT } from "../../core/batchParams.js";
import { FIXED_ONE, mulQ16 } from "../../core/fixedPoint.js";
import type { DropletKernel } from "./dropletKernel.js";

// Math's functions as module constants: a global lookup of `Math` is twenty times slower in a
// vm context (jest's test environment, some worker sandboxes) and these run per droplet step.
const { abs, clz32, max, sqrt } = Math;

/** Pass 1: traces the walk of a droplet spawned at (spawnX, spawnY) into `kernel`'s path (and its visits into `water`). */
export function walkDroplet(kernel: DropletKernel, heights: Int32Array, spawnX: number, spawnY: number, water: Int32Array | null): void {
    const fixedOne = FIXED_ONE | 0;
    const gradientLimit = GRADIENT_LIMIT | 0;
    const width = kernel.width | 0;
    const limitX = ((width - 1) * fixedOne) | 0;
    const limitY = ((kernel.depth - 1) * fixedOne) | 0;
    const inertia = kernel.inertia | 0;
    const gradientWeight = fixedOne - inertia;
    const walkLimit = kernel.walkLimit | 0;
    const pathX = kernel.pathX;
    const pathY = kernel.pathY;
    const pathDrop = kernel.pathDrop;

    let px = spawnX | 0;
    let py = spawnY | 0;
    let dirX = 0;
    let dirY = 0;
    let leftField = false;
    let steps = 0;
    // The corner heights of the cell under the droplet and the height there. The WGSL reads them
    // at the top of every step; here each step hands on what it sampled at the next position.
    const i00 = (py >> 16) * width + (px >> 16);
    let fx = px & 0xffff;
    let fy = py & 0xffff;
    let h00 = heights[i00];
    let h10 = heights[i00 + 1];
    let h01 = heights[i00 + width];
    let h11 = heights[i00 + width + 1];
    const h0 = h00 + mulQ16(h10 - h00, fx);
    const h1 = h01 + mulQ16(h11 - h01, fx);
    let heightHere = h0 + mulQ16(h1 - h0, fy);

    while (steps < walkLimit) {
        let gradX = mulQ16(h10 - h00, fixedOne - fy) + mulQ16(h11 - h01, fy);
        let gradY = mulQ16(h01 - h00, fixedOne - fx) + mulQ16(h11 - h10, fx);
        gradX = gradX > gradientLimit ? gradientLimit : gradX < -gradientLimit ? -gradientLimit : gradX;
        gradY = gradY > gradientLimit ? gradientLimit : gradY < -gradientLimit ? -gradientLimit : gradY;

        // New direction: keep `inertia` of the old one, turn the rest toward the downhill gradient.
        const wantX = mulQ16(dirX, inertia) - mulQ16(gradX, gradientWeight);
        const wantY = mulQ16(dirY, inertia) - mulQ16(gradY, gradientWeight);
        // One compare that runs every step, not `wantX === 0 && wantY === 0`: V8 optimised the walk
        // before the second compare had ever run, threw the code away the first time a walk met flat
        // ground, and whether it then re-entered through on-stack replacement (a slower compile of
        // the walk, kept for the rest of the process) depended on timing. That was the walk's
        // occasional slow process: 11.1-11.3 M steps/s in 5 of 14 processes against 12.7-13.9 M,
        // exactly the processes where --trace-opt showed walkDroplet compiled "OSR" (bench setup,
        // 512^2, radius 3). With one compare: no deopt there, and no slow process in 20.
        if ((wantX | wantY) === 0) {
            break; // on flat ground with no momentum: the walk ends here
        }
        // Normalise to one cell: bring the larger component to 15 bits (exact shifts), then divide.
        const largest = max(abs(wantX), abs(wantY));
        const bits = 32 - clz32(largest);
        let reducedX: number;
        let reducedY: number;
        if (bits > 15) {
            reducedX = wantX >> (bits - 15);
            reducedY = wantY >> (bits - 15);
        } else {
            reducedX = wantX << (15 - bits);
            reducedY = wantY << (15 - bits);
        }
        // isqrt32: the root is positive, so `| 0` floors it.
        const length = sqrt(reducedX * reducedX + reducedY * reducedY) | 0;
        dirX = ((reducedX * fixedOne) / length) | 0;
        dirY = ((reducedY * fixedOne) / length) | 0;

        const nextX = px + dirX;
        const nextY = py + dirY;
        steps++;
        if (water !== null) {
            water[((py + 0x8000) >> 16) * width + ((px + 0x8000) >> 16)]++;
        }
        if (nextX < 0 || nextY < 0 || nextX >= limitX || nextY >= limitY) {
            leftField = true;
            break;
        }
        // The WGSL's sampleHeight(nextX, nextY), keeping the corners for the next step.
        const nextI00 = (nextY >> 16) * width + (nextX >> 16);
        const nextFx = nextX & 0xffff;
        const nextFy = nextY & 0xffff;
        const n00 = heights[nextI00];
        const n10 = heights[nextI00 + 1];
        const n01 = heights[nextI00 + width];
        const n11 = heights[nextI00 + width + 1];
        const n0 = n00 + mulQ16(n10 - n00, nextFx);
        const n1 = n01 + mulQ16(n11 - n01, nextFx);
        const heightNext = n0 + mulQ16(n1 - n0, nextFy);

        pathX[steps - 1] = px;
        pathY[steps - 1] = py;
        pathDrop[steps - 1] = heightNext - heightHere;
        px = nextX;
        py = nextY;
        fx = nextFx;
        fy = nextFy;
        h00 = n00;
        h10 = n10;
        h01 = n01;
        h11 = n11;
        heightHere = heightNext;
    }
    kernel.steps = steps;
    kernel.erodingSteps = leftField ? steps - 1 : steps;
    kernel.leftField = leftField;
    kernel.endX = px;
    kernel.endY = py;
}
