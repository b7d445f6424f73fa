/**
 * Measures that tell erosion from things that merely change heights: how concentrated the cut
 * is, whether it is elongated along the slope (channels) rather than isotropic (noise), and
 * whether material moved downhill.
 */

/** Cut and fill per cell (metres, both positive) between two fixed-point fields. */
export function changeMaps(before: Int32Array, after: Int32Array): { cut: Float64Array; fill: Float64Array } {
    const cut = new Float64Array(before.length);
    const fill = new Float64Array(before.length);
    for (let i = 0; i < before.length; i++) {
        const change = (after[i] - before[i]) / 65536;
        if (change < 0) cut[i] = -change;
        else fill[i] = change;
    }
    return { cut, fill };
}

/** Share of the total held by the largest tenth of the values (0.1 for uniform, up to 1). */
export function topDecileShare(values: Float64Array): number {
    const sorted = Array.from(values).sort((a, b) => b - a);
    const total = sorted.reduce((a, b) => a + b, 0);
    let top = 0;
    for (let i = 0; i < Math.ceil(sorted.length / 10); i++) top += sorted[i];
    return total > 0 ? top / total : 0;
}

/** Pearson correlation of a map with itself shifted by (lagX, lagY), away from a 2-cell border. */
export function lagCorrelation(map: Float64Array, width: number, depth: number, lagX: number, lagY: number): number {
    let sxy = 0, sx = 0, sy = 0, sxx = 0, syy = 0, n = 0;
    for (let y = 2; y < depth - 2 - lagY; y++) {
        for (let x = 2; x < width - 2 - lagX; x++) {
            const a = map[y * width + x];
            const b = map[(y + lagY) * width + x + lagX];
            sxy += a * b; sx += a; sy += b; sxx += a * a; syy += b * b; n++;
        }
    }
    const variance = (sxx / n - (sx / n) ** 2) * (syy / n - (sy / n) ** 2);
    return variance > 0 ? (sxy / n - (sx / n) * (sy / n)) / Math.sqrt(variance) : 0;
}

/** Weighted mean x of a map. */
export function centroidX(map: Float64Array, width: number): number {
    let weighted = 0, total = 0;
    for (let i = 0; i < map.length; i++) {
        weighted += (i % width) * map[i];
        total += map[i];
    }
    return total > 0 ? weighted / total : NaN;
}

/** Pearson correlation of two maps. */
export function pearson(a: Float64Array, b: Float64Array): number {
    let sxy = 0, sx = 0, sy = 0, sxx = 0, syy = 0;
    const n = a.length;
    for (let i = 0; i < n; i++) {
        sxy += a[i] * b[i]; sx += a[i]; sy += b[i]; sxx += a[i] * a[i]; syy += b[i] * b[i];
    }
    return (sxy / n - (sx / n) * (sy / n)) / Math.sqrt((sxx / n - (sx / n) ** 2) * (syy / n - (sy / n) ** 2));
}

/** 3 x 3 box blur (edges average the cells that exist). */
export function boxBlur3(map: Float64Array, width: number, depth: number): Float64Array {
    const out = new Float64Array(map.length);
    for (let y = 0; y < depth; y++) {
        for (let x = 0; x < width; x++) {
            let sum = 0, count = 0;
            for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
                const nx = x + dx, ny = y + dy;
                if (nx >= 0 && ny >= 0 && nx < width && ny < depth) { sum += map[ny * width + nx]; count++; }
            }
            out[y * width + x] = sum / count;
        }
    }
    return out;
}

/** Verdict on a slope that falls toward +x: reasons it does not look like erosion (empty if it does). */
export function erosionPatternProblems(before: Int32Array, after: Int32Array, width: number, depth: number): string[] {
    const { cut, fill } = changeMaps(before, after);
    const problems: string[] = [];
    const concentration = topDecileShare(cut);
    if (!(concentration >= 0.3)) problems.push(`cut is not concentrated: the top 10% of cells hold ${concentration.toFixed(2)} of it (uniform lowering gives 0.1)`);
    const along = lagCorrelation(cut, width, depth, 3, 0);
    const across = lagCorrelation(cut, width, depth, 0, 3);
    if (!(along >= 0.3 && along > across + 0.1)) problems.push(`cut is not channelled down the slope: correlation at 3 cells along ${along.toFixed(2)}, across ${across.toFixed(2)}`);
    const cutX = centroidX(cut, width);
    const fillX = centroidX(fill, width);
    if (!(fillX > cutX + 3)) problems.push(`material did not move downhill: cut centred at x ${cutX.toFixed(1)}, fill at x ${fillX.toFixed(1)}`);
    return problems;
}
