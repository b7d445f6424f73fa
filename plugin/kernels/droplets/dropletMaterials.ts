/**
 * Pass 3 of the CPU droplet kernel with the materials on (docs/simulation.md, "Materials"): as
 * `erodeAlongPath` and `erodeAlongPathMasked`, but each part a step cuts at a vertex (after the
 * mask) takes the soil there first and the rock beneath at 1 / hardness, against the soil and
 * heights the batch started from. Entry by entry, in the order of `cutPart` in
 * `shaders/droplets/erode_droplets.wgsl` (a slower path than the unmasked one's quads: it runs only with the
 * materials on).
 */
import { MAX_SHARE_SHIFT, type BatchParams } from "../../core/batchParams.js";
import { FIXED_ONE, mulQ16 } from "../../core/fixedPoint.js";
import { rockTaken, writeVertexHardness, type MaterialGrids } from "../../core/materials.js";
import { uniformHardness } from "../fold/soilFold.js";
import { addBilinear, addBilinearMasked } from "./bilinear.js";
import type { DropletKernel } from "./dropletKernel.js";

const { min } = Math;

/** A grid of the field's size the batches' hardness is worked out in, kept between batches. */
let hardnessScratch = new Int32Array(0);

/**
 * What a droplet step cuts at each vertex: masked, then through the materials' rule. Mirrors
 * `cutPart`. The hardness of every vertex a batch can cut (its region) is worked out once, when
 * the batch starts: the walk reads the heights and soil the batch started from, so it holds for
 * every part, and a batch cuts some thirty parts a step (measured: droplets with the materials 10x
 * slower when each part worked its hardness out).
 */
export class MaterialCuts {
    private readonly _soil: Int32Array;
    private readonly _hardness: Int32Array;
    /** The batch's region, where `hardness` holds. */
    public readonly region: { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number };
    /** Every vertex's hardness where it is the same everywhere (`uniformHardness`; `hardness` then not written), else 0. */
    public readonly uniformHardness: number;

    constructor(
        private readonly _params: BatchParams,
        heights: Int32Array,
        materials: MaterialGrids,
        private readonly _mask: Int32Array | null
    ) {
        const { width, depth, regionX0, regionY0, regionX1, regionY1 } = _params;
        if (hardnessScratch.length < width * depth) hardnessScratch = new Int32Array(width * depth);
        this.region = { x0: regionX0, y0: regionY0, x1: regionX1, y1: regionY1 };
        this.uniformHardness = uniformHardness(_params, materials);
        if (this.uniformHardness === 0) writeVertexHardness(_params, heights, materials, width, this.region, hardnessScratch);
        this._soil = materials.soil;
        this._hardness = hardnessScratch;
    }

    /** The soil the batch started from, per vertex of the field. */
    public get soil(): Int32Array {
        return this._soil;
    }

    /** The rock's hardness (Q8) per vertex of the field, inside `region` only, unless `uniformHardness` is set. */
    public get hardness(): Int32Array {
        return this._hardness;
    }

    /** What a step that would cut `part` at vertex i (in the batch's region) cuts. */
    public cut(part: number, i: number): number {
        const moved = this._mask === null ? part : mulQ16(part, this._mask[i]);
        if (moved <= 0) return moved;
        const soil = this._soil[i];
        const fromSoil = moved < soil ? moved : soil;
        return fromSoil + rockTaken(moved - fromSoil, this.uniformHardness !== 0 ? this.uniformHardness : this._hardness[i]);
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
        const c00 = this.cut(p00, i00);
        const c10 = this.cut(p10, i00 + 1);
        const c01 = this.cut(p01, i00 + width);
        const c11 = this.cut(amount - p00 - p10 - p01, i00 + width + 1);
        delta[i00] -= c00;
        delta[i00 + 1] -= c10;
        delta[i00 + width] -= c01;
        delta[i00 + width + 1] -= c11;
        return c00 + c10 + c01 + c11;
    }

    /** Cuts `amount` from the brush centred on the vertex nearest (px, py), entry by entry (`brush`: the table's dx, dy, weight); returns what was cut. */
    public cutBrush(
        delta: Int32Array, px: number, py: number, amount: number, brush: { readonly dx: Int32Array; readonly dy: Int32Array; readonly weight: Int32Array }
    ): number {
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
