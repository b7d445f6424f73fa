/**
 * Pass 3 of the CPU droplet kernel with the materials on (docs/simulation.md, "Materials"): as
 * `erodeAlongPath` and `erodeAlongPathMasked`, but each part a step cuts at a vertex (after the
 * mask) takes the soil there first and the rock beneath at 1 / hardness, against the soil and
 * heights the batch started from. Entry by entry, in the order of `cutPart` in
 * `shaders/erode_droplets.wgsl` (a slower path than the unmasked one's quads: it runs only with the
 * materials on).
 */
import { MAX_SHARE_SHIFT, type BatchParams } from "../../batchParams.js";
import { FIXED_ONE, mulQ16 } from "../../fixedPoint.js";
import { materialCut, vertexHardness, type MaterialGrids } from "../../materials.js";
import { addBilinear, addBilinearMasked } from "./bilinear.js";
import type { DropletKernel } from "./dropletKernel.js";

const { min } = Math;

/** What a droplet step cuts at each vertex: masked, then through the materials' rule. Mirrors `cutPart`. */
export class MaterialCuts {
    constructor(
        private readonly _params: BatchParams,
        private readonly _heights: Int32Array,
        private readonly _materials: MaterialGrids,
        private readonly _mask: Int32Array | null
    ) {}

    /** What a step that would cut `part` at vertex i cuts. */
    public cut(part: number, i: number): number {
        const moved = this._mask === null ? part : mulQ16(part, this._mask[i]);
        if (moved <= 0) return moved;
        const width = this._params.width;
        const y = Math.floor(i / width);
        return materialCut(moved, this._materials.soil[i], vertexHardness(this._params, this._heights, this._materials, i, i - y * width, y));
    }

    /** Cuts `amount` split bilinearly around (px, py), each part through `cut`; returns what was cut. */
    public cutBilinear(delta: Int32Array, px: number, py: number, amount: number): number {
        const width = this._params.width;
        const i00 = (py >> 16) * width + (px >> 16);
        const fx = px & 0xffff;
        const fy = py & 0xffff;
        const p00 = mulQ16(amount, mulQ16(FIXED_ONE - fx, FIXED_ONE - fy));
        const p10 = mulQ16(amount, mulQ16(fx, FIXED_ONE - fy));
        const p01 = mulQ16(amount, mulQ16(FIXED_ONE - fx, fy));
        const parts = [p00, p10, p01, amount - p00 - p10 - p01];
        const vertices = [i00, i00 + 1, i00 + width, i00 + width + 1];
        let cut = 0;
        for (let k = 0; k < 4; k++) {
            const taken = this.cut(parts[k], vertices[k]);
            delta[vertices[k]] -= taken;
            cut += taken;
        }
        return cut;
    }

    /** Cuts `amount` from the brush centred on the vertex nearest (px, py), entry by entry (`brush`: the table's dx, dy, weight); returns what was cut. */
    public cutBrush(delta: Int32Array, px: number, py: number, amount: number, brush: { readonly dx: Int32Array; readonly dy: Int32Array; readonly weight: Int32Array }): number {
        const { width, depth } = this._params;
        const centreX = (px + 0x8000) >> 16;
        const centreY = (py + 0x8000) >> 16;
        let remainder = amount;
        let cut = 0;
        for (let k = 1; k < brush.weight.length; k++) {
            const part = mulQ16(amount, brush.weight[k]);
            remainder -= part;
            const x = centreX + brush.dx[k];
            const y = centreY + brush.dy[k];
            if (x >= 0 && y >= 0 && x < width && y < depth) {
                const taken = this.cut(part, y * width + x);
                delta[y * width + x] -= taken;
                cut += taken;
            }
        }
        const centre = centreY * width + centreX;
        const rest = this.cut(remainder, centre);
        delta[centre] -= rest;
        return cut + rest;
    }
}

/** Pass 3 with the materials on (and the mask, when set): returns the sediment the droplet still carries. */
export function erodeAlongPathMaterials(kernel: DropletKernel, delta: Int32Array, mask: Int32Array | null, cuts: MaterialCuts): number {
    const width = kernel.width;
    let sediment = 0;
    for (let step = 0; step < kernel.erodingSteps; step++) {
        const drop = kernel.pathDrop[step];
        const carry = kernel.pathCarry[step];
        const px = kernel.pathX[step];
        const py = kernel.pathY[step];
        if (sediment > carry || drop > 0) {
            let amount = drop > 0 ? min(sediment, mulQ16(drop >> MAX_SHARE_SHIFT, kernel.share)) : mulQ16(sediment - carry, kernel.deposition);
            amount = min(amount, kernel.stepCap);
            if (amount > 0) {
                if (mask === null) {
                    addBilinear(delta, width, px, py, amount, 1);
                    sediment -= amount;
                } else {
                    sediment -= addBilinearMasked(delta, mask, width, px, py, amount, 1);
                }
            }
        } else {
            let amount = min(mulQ16(carry - sediment, kernel.erosion), mulQ16(-drop >> MAX_SHARE_SHIFT, kernel.share));
            amount = min(amount, kernel.stepCap);
            if (amount > 0) {
                sediment += kernel.hasBrush ? cuts.cutBrush(delta, px, py, amount, kernel.brush) : cuts.cutBilinear(delta, px, py, amount);
            }
        }
    }
    return sediment;
}
