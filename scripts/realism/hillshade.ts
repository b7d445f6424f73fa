/**
 * Pictures of a realism run: a hillshade of the heights with the drainage network drawn over it
 * (channel cells in blue, darker where more water gathers) and pits in red.
 */
import { CHANNEL_MIN_AREA } from "../../plugin/advanced.js";
import { type DrainageField, encodeRgb8Png } from "../../plugin/terrain.js";

/** Light from the north-west, 45 degrees up, as cartographers draw it. */
const LIGHT = (() => {
    const azimuth = (315 * Math.PI) / 180;
    const altitude = Math.PI / 4;
    return { x: Math.cos(altitude) * Math.sin(azimuth), y: Math.cos(altitude) * Math.cos(azimuth), z: Math.sin(altitude) };
})();

/** The light falling on (x, y) of `heights` (metres, `cellSize` apart), 0 to 1, from central differences. */
function shadeAt(heights: ArrayLike<number>, width: number, depth: number, cellSize: number, x: number, y: number): number {
    const left = heights[y * width + Math.max(0, x - 1)];
    const right = heights[y * width + Math.min(width - 1, x + 1)];
    const up = heights[Math.max(0, y - 1) * width + x];
    const down = heights[Math.min(depth - 1, y + 1) * width + x];
    // Rows grow southward: north is up in the picture.
    const dzdx = (right - left) / (2 * cellSize);
    const dzdy = (up - down) / (2 * cellSize);
    return Math.max(0, (-dzdx * LIGHT.x - dzdy * LIGHT.y + LIGHT.z) / Math.hypot(dzdx, dzdy, 1));
}

/** Pictures are drawn at least this many pixels wide (small grids are enlarged, each cell a square). */
const MIN_PICTURE_WIDTH = 512;

/** A PNG of `heights` (metres, `cellSize` apart) hillshaded, with `field`'s channels and pits drawn over. */
export function hillshadePng(heights: ArrayLike<number>, field: DrainageField, cellSize: number): Promise<Uint8Array> {
    const { width, depth, area, receivers } = field;
    const pixels = new Uint8Array(width * depth * 3);
    const maxArea = Math.log(area.reduce((a, b) => Math.max(a, b), 1));
    for (let y = 0; y < depth; y++) {
        for (let x = 0; x < width; x++) {
            const i = y * width + x;
            const shade = shadeAt(heights, width, depth, cellSize, x, y);
            let red = 40 + 200 * shade;
            let green = 38 + 195 * shade;
            let blue = 34 + 180 * shade;
            const inner = x > 0 && y > 0 && x < width - 1 && y < depth - 1;
            if (inner && receivers[i] < 0) {
                [red, green, blue] = [230, 30, 30];
            } else if (area[i] >= CHANNEL_MIN_AREA && receivers[i] >= 0) {
                const strength = Math.min(1, Math.log(area[i]) / maxArea);
                const mix = 0.35 + 0.65 * strength;
                red = red * (1 - mix) + 20 * mix;
                green = green * (1 - mix) + 90 * mix;
                blue = blue * (1 - mix) + 230 * mix;
            }
            pixels[i * 3] = red;
            pixels[i * 3 + 1] = green;
            pixels[i * 3 + 2] = blue;
        }
    }
    const zoom = Math.max(1, Math.ceil(MIN_PICTURE_WIDTH / width));
    return encodeRgb8Png(enlarge(pixels, width, depth, zoom), width * zoom, depth * zoom);
}

/**
 * A PNG of `after` (metres, `cellSize` apart) hillshaded and tinted by its change from `before`:
 * amber where material was laid down, blue where it was cut, full strength at `scale` metres.
 */
export function changePng(before: ArrayLike<number>, after: ArrayLike<number>, width: number, depth: number, cellSize: number, scale: number): Promise<Uint8Array> {
    const pixels = new Uint8Array(width * depth * 3);
    for (let y = 0; y < depth; y++) {
        for (let x = 0; x < width; x++) {
            const i = y * width + x;
            const shade = shadeAt(after, width, depth, cellSize, x, y);
            const grey = 40 + 200 * shade;
            const change = after[i] - before[i];
            const mix = Math.min(1, Math.abs(change) / scale);
            const [r, g, b] = change > 0 ? [235, 160, 30] : [40, 90, 220];
            pixels[i * 3] = grey * (1 - mix) + r * mix * (0.4 + 0.6 * shade);
            pixels[i * 3 + 1] = grey * (1 - mix) + g * mix * (0.4 + 0.6 * shade);
            pixels[i * 3 + 2] = grey * (1 - mix) + b * mix * (0.4 + 0.6 * shade);
        }
    }
    const zoom = Math.max(1, Math.ceil(MIN_PICTURE_WIDTH / width));
    return encodeRgb8Png(enlarge(pixels, width, depth, zoom), width * zoom, depth * zoom);
}

/** Each pixel of an RGB picture as a `zoom x zoom` square. */
function enlarge(pixels: Uint8Array, width: number, depth: number, zoom: number): Uint8Array {
    if (zoom === 1) return pixels;
    const out = new Uint8Array(width * zoom * depth * zoom * 3);
    for (let y = 0; y < depth * zoom; y++) {
        for (let x = 0; x < width * zoom; x++) {
            const from = ((Math.floor(y / zoom) * width + Math.floor(x / zoom)) * 3);
            out.set(pixels.subarray(from, from + 3), (y * width * zoom + x) * 3);
        }
    }
    return out;
}
