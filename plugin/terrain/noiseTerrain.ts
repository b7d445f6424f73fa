/**
 * Procedural test terrains: fBm value noise with ridged octaves, a cone and a tilted plane.
 * Deterministic for a given seed (integer hashing, plain arithmetic), so tests and the sample
 * scene get the same ground on every machine.
 */
import { hash4 } from "../core/hash.js";

/** Options of `generateNoiseTerrain`. */
export interface NoiseTerrainOptions {
    /** Vertices per row. */
    width: number;
    /** Rows. */
    depth: number;
    /** Hash seed, a u32. Default 1. */
    seed?: number;
    /** Height difference between the lowest and highest point, metres. Default 100. */
    relief?: number;
    /** Wavelength of the first octave, in cells. Default a quarter of the larger side. */
    wavelength?: number;
    /** Octaves. Default 6. */
    octaves?: number;
    /** Weight of the ridged octaves, 0..1. Default 0.5. */
    ridged?: number;
    /** Tilt added along +x, in metres per cell (makes a slope for water to run down). Default 0. */
    tilt?: number;
}

function lattice(seed: number, octave: number, x: number, y: number): number {
    return hash4(seed, octave, x >>> 0, y >>> 0) / 4294967296;
}

function valueNoise(seed: number, octave: number, x: number, y: number): number {
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const tx = x - x0;
    const ty = y - y0;
    const sx = tx * tx * (3 - 2 * tx);
    const sy = ty * ty * (3 - 2 * ty);
    const a = lattice(seed, octave, x0, y0);
    const b = lattice(seed, octave, x0 + 1, y0);
    const c = lattice(seed, octave, x0, y0 + 1);
    const d = lattice(seed, octave, x0 + 1, y0 + 1);
    return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
}

/** fBm plus ridged value noise, scaled to [0, relief] metres, row-major. */
export function generateNoiseTerrain(options: NoiseTerrainOptions): Float32Array {
    const { width, depth } = options;
    const seed = options.seed ?? 1;
    const relief = options.relief ?? 100;
    const wavelength = options.wavelength ?? Math.max(width, depth) / 4;
    const octaves = options.octaves ?? 6;
    const ridged = options.ridged ?? 0.5;
    const tilt = options.tilt ?? 0;
    const raw = new Float64Array(width * depth);
    let low = Infinity;
    let high = -Infinity;
    for (let y = 0; y < depth; y++) {
        for (let x = 0; x < width; x++) {
            let value = 0;
            let amplitude = 1;
            let frequency = 1 / wavelength;
            for (let octave = 0; octave < octaves; octave++) {
                const n = valueNoise(seed, octave, x * frequency, y * frequency);
                const ridge = 1 - Math.abs(2 * n - 1);
                value += amplitude * ((1 - ridged) * n + ridged * ridge * ridge);
                amplitude *= 0.5;
                frequency *= 2;
            }
            raw[y * width + x] = value;
            low = Math.min(low, value);
            high = Math.max(high, value);
        }
    }
    const scale = high > low ? relief / (high - low) : 0;
    const out = new Float32Array(width * depth);
    for (let y = 0; y < depth; y++) {
        for (let x = 0; x < width; x++) {
            const i = y * width + x;
            out[i] = (raw[i] - low) * scale + tilt * (width - 1 - x);
        }
    }
    return out;
}

/** A cone of the given height and base radius (cells) centred on the grid, on flat ground at 0. */
export function generateCone(width: number, depth: number, height: number, radius: number): Float32Array {
    const out = new Float32Array(width * depth);
    const cx = (width - 1) / 2;
    const cy = (depth - 1) / 2;
    for (let y = 0; y < depth; y++) {
        for (let x = 0; x < width; x++) {
            const distance = Math.hypot(x - cx, y - cy);
            out[y * width + x] = Math.max(0, height * (1 - distance / radius));
        }
    }
    return out;
}
