/**
 * Heights in metres to and from 16-bit samples over a height range: what a 16-bit heightmap PNG's
 * samples stand for. Free of Babylon, so the bake command uses it too.
 */

/** The heights a 16-bit heightmap's samples 0 and 65535 stand for. */
export interface HeightRange {
    /** Height of sample 0, metres. */
    readonly min: number;
    /** Height of sample 65535, metres. */
    readonly max: number;
}

/** Heights in metres from 16-bit samples: `min + sample / 65535 * (max - min)`. */
export function samplesToHeights(samples: Uint16Array, range: HeightRange): Float32Array {
    const heights = new Float32Array(samples.length);
    const scale = (range.max - range.min) / 65535;
    for (let i = 0; i < samples.length; i++) {
        heights[i] = range.min + samples[i] * scale;
    }
    return heights;
}

/**
 * 16-bit samples from heights: rounded to the nearest of 65536 steps over `range` (default: the
 * heights' own minimum and maximum), clamped to it. Returns the range used.
 */
export function heightsToSamples(heights: ArrayLike<number>, range?: HeightRange): { samples: Uint16Array; range: HeightRange } {
    if (range && !(Number.isFinite(range.min) && Number.isFinite(range.max) && range.max > range.min)) {
        throw new RangeError(`The height range is [${range.min}, ${range.max}] m: it must be finite with max > min.`);
    }
    let min = range?.min ?? Infinity;
    let max = range?.max ?? -Infinity;
    if (!range) {
        for (let i = 0; i < heights.length; i++) {
            min = Math.min(min, heights[i]);
            max = Math.max(max, heights[i]);
        }
        if (!(max > min)) {
            max = min + 1;
        }
    }
    const samples = new Uint16Array(heights.length);
    const scale = 65535 / (max - min);
    for (let i = 0; i < heights.length; i++) {
        samples[i] = Math.min(65535, Math.max(0, Math.round((heights[i] - min) * scale)));
    }
    return { samples, range: { min, max } };
}
