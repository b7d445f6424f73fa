/**
 * The droplet's erosion brush on the CPU: how a step's cut is spread over the brush table's vertices
 * (`plugin/core/brush.ts` builds the table). Mirrors `cutWithBrush` in `shaders/droplets/erode_droplets.wgsl`:
 * every entry but the centre takes floor(amount * weight / 2^16), the centre takes the rest, and
 * entries outside the field are skipped. The WGSL walks the table entry by entry; `BrushLayout`
 * regroups it so a cut inside the field costs a few loop iterations, with the same integers.
 */
import { BRUSH_ENTRY_INTS } from "../../core/brush.js";
import { mulQ16 } from "../../core/fixedPoint.js";

/**
 * The brush as the droplet loop uses it (built once per batch). Three things make a cut cheaper
 * than walking the table entry by entry, without changing what any vertex gets:
 * - Entries of equal weight (the same distance from the centre) share one part, computed once.
 * - The brush is symmetric through its centre: the entry at (dx, dy) has a twin at (-dx, -dy) with
 *   the same weight, so one offset of the vertex index, dy * width + dx, serves both
 *   (`centre + offset` and `centre - offset`).
 * - Equal-weight entries come in whole orbits of the brush's symmetries (4 or 8 entries), so they
 *   can be taken four at a time: a quad is two twin pairs of one weight.
 * For radius 3 that is 7 quads (7 parts, 7 loop iterations) instead of 28 entries.
 */
export class BrushLayout {
    public readonly dx: Int32Array;
    public readonly dy: Int32Array;
    public readonly weight: Int32Array;
    /**
     * Two pairs of twin entries of equal weight per quad: for each pair, dy * width + dx of the entry
     * with dy > 0, or dy = 0 and dx > 0 (its twin is at minus that offset).
     */
    public readonly quadOffsets: Int32Array;
    /** The weight of each quad's four entries. */
    public readonly quadWeight: Int32Array;
    /** The (dx, dy) of each pair's entry that `quadOffsets` addresses, for a grid of another width (`quadOffsetsFor`). */
    private readonly pairDx: Int32Array;
    private readonly pairDy: Int32Array;

    constructor(brush: Int32Array, count: number, width: number) {
        this.dx = new Int32Array(count);
        this.dy = new Int32Array(count);
        this.weight = new Int32Array(count);
        for (let k = 0; k < count; k++) {
            this.dx[k] = brush[k * BRUSH_ENTRY_INTS];
            this.dy[k] = brush[k * BRUSH_ENTRY_INTS + 1];
            this.weight[k] = brush[k * BRUSH_ENTRY_INTS + 2];
        }
        const groups = new Map<number, number[]>();
        for (let k = 1; k < count; k++) {
            if (this.dy[k] > 0 || (this.dy[k] === 0 && this.dx[k] > 0)) {
                const pairs = groups.get(this.weight[k]) ?? [];
                pairs.push(k);
                groups.set(this.weight[k], pairs);
            }
        }
        this.pairDx = new Int32Array((count - 1) / 2);
        this.pairDy = new Int32Array((count - 1) / 2);
        this.quadWeight = new Int32Array((count - 1) / 4);
        let pair = 0;
        for (const [weight, entries] of groups) {
            // A group holds whole orbits of the brush's symmetries (2 or 4 pairs each), so an even
            // number of pairs, which `cutInsideField` takes two at a time.
            if (entries.length % 2 !== 0) {
                throw new Error("Internal error: a brush group has an odd number of twin pairs.");
            }
            for (const k of entries) {
                this.quadWeight[pair >> 1] = weight;
                this.pairDx[pair] = this.dx[k];
                this.pairDy[pair++] = this.dy[k];
            }
        }
        this.quadOffsets = this.quadOffsetsFor(width);
    }

    /** `quadOffsets` on a grid `width` vertices wide (the WebAssembly kernel's window). */
    public quadOffsetsFor(width: number): Int32Array {
        return this.pairDy.map((dy, pair) => dy * width + this.pairDx[pair]);
    }
}

/**
 * Cuts `amount` from the vertices of the brush centred on the vertex nearest (px, py); returns
 * what was cut (vertices outside the field are skipped).
 */
export function cutWithBrush(
    delta: Int32Array, width: number, depth: number, px: number, py: number, amount: number, radius: number, brush: BrushLayout
): number {
    const centreX = (px + 0x8000) >> 16;
    const centreY = (py + 0x8000) >> 16;
    if (centreX >= radius && centreY >= radius && centreX + radius < width && centreY + radius < depth) {
        cutInsideField(delta, centreY * width + centreX, amount, brush.quadOffsets, brush.quadWeight);
        return amount;
    }
    return cutNearEdge(delta, null, width, depth, centreX, centreY, amount, brush);
}

/** `cutWithBrush` for a brush wholly inside the field, four entries of equal weight at a time (`BrushLayout`). */
function cutInsideField(delta: Int32Array, centre: number, amount: number, quadOffsets: Int32Array, quadWeight: Int32Array): void {
    let remainder = amount;
    for (let quad = 0; quad < quadWeight.length; quad++) {
        const part = mulQ16(amount, quadWeight[quad]);
        const first = quadOffsets[2 * quad];
        const second = quadOffsets[2 * quad + 1];
        delta[centre + first] -= part;
        delta[centre - first] -= part;
        delta[centre + second] -= part;
        delta[centre - second] -= part;
        remainder -= 4 * part;
    }
    delta[centre] -= remainder;
}

/**
 * `cutWithBrush` (and, with a mask, `cutWithBrushMasked`) for a brush that reaches past the field's
 * edge: entry by entry, as the WGSL does; each part scaled by the mask at its vertex when there is
 * one. Returns what was cut.
 */
function cutNearEdge(
    delta: Int32Array, mask: Int32Array | null, width: number, depth: number, centreX: number, centreY: number, amount: number, brush: BrushLayout
): number {
    const count = brush.weight.length;
    let remainder = amount;
    let cut = 0;
    for (let k = 1; k < count; k++) {
        const part = mulQ16(amount, brush.weight[k]);
        remainder -= part;
        const x = centreX + brush.dx[k];
        const y = centreY + brush.dy[k];
        if (x >= 0 && y >= 0 && x < width && y < depth) {
            const i = y * width + x;
            const taken = mask === null ? part : mulQ16(part, mask[i]);
            delta[i] -= taken;
            cut += taken;
        }
    }
    const centre = centreY * width + centreX;
    const rest = mask === null ? remainder : mulQ16(remainder, mask[centre]);
    delta[centre] -= rest;
    return cut + rest;
}

/**
 * `cutWithBrush` with each entry's part scaled by the mask at its vertex; returns what was cut. The
 * parts are the unmasked ones (so a mask of ones changes nothing), each then scaled by its vertex's
 * mask; inside the field by quads, as `cutInsideField` (each quad's part computed once), near its
 * edge entry by entry.
 */
export function cutWithBrushMasked(
    delta: Int32Array, mask: Int32Array, width: number, depth: number, px: number, py: number, amount: number, radius: number, brush: BrushLayout
): number {
    const centreX = (px + 0x8000) >> 16;
    const centreY = (py + 0x8000) >> 16;
    if (centreX >= radius && centreY >= radius && centreX + radius < width && centreY + radius < depth) {
        return cutInsideFieldMasked(delta, mask, centreY * width + centreX, amount, brush.quadOffsets, brush.quadWeight);
    }
    return cutNearEdge(delta, mask, width, depth, centreX, centreY, amount, brush);
}

function cutInsideFieldMasked(delta: Int32Array, mask: Int32Array, centre: number, amount: number, quadOffsets: Int32Array, quadWeight: Int32Array): number {
    let remainder = amount;
    let cut = 0;
    for (let quad = 0; quad < quadWeight.length; quad++) {
        const part = mulQ16(amount, quadWeight[quad]);
        const first = quadOffsets[2 * quad];
        const second = quadOffsets[2 * quad + 1];
        const a = mulQ16(part, mask[centre + first]);
        const b = mulQ16(part, mask[centre - first]);
        const c = mulQ16(part, mask[centre + second]);
        const d = mulQ16(part, mask[centre - second]);
        delta[centre + first] -= a;
        delta[centre - first] -= b;
        delta[centre + second] -= c;
        delta[centre - second] -= d;
        cut += a + b + c + d;
        remainder -= 4 * part;
    }
    const maskedRemainder = mulQ16(remainder, mask[centre]);
    delta[centre] -= maskedRemainder;
    return cut + maskedRemainder;
}
