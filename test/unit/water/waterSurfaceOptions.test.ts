/**
 * `TerrainWaterSurface`'s options: defaults, merging over the current options, and an error naming
 * the option (and what it must be) for every kind of bad value, before anything changes.
 */
import { resolveWaterSurfaceOptions, WATER_SURFACE_DEFAULTS } from "../../../plugin/water/index.js";

describe("water surface options", () => {
    it("gives the defaults for no input, and merges a partial input over a base", () => {
        expect(resolveWaterSurfaceOptions()).toEqual(WATER_SURFACE_DEFAULTS);
        const base = resolveWaterSurfaceOptions({ opacity: 0.5, deepColor: { r: 0, g: 0.1, b: 0.3 } });
        const next = resolveWaterSurfaceOptions({ minDepth: 0.1, fadeDepth: undefined }, base);
        expect(next).toEqual({ ...WATER_SURFACE_DEFAULTS, opacity: 0.5, deepColor: { r: 0, g: 0.1, b: 0.3 }, minDepth: 0.1 });
        expect(Object.isFrozen(next) && Object.isFrozen(next.deepColor)).toBe(true);
    });

    it("copies colours and directions, so changing the caller's object later changes nothing", () => {
        const colour = { r: 0.2, g: 0.3, b: 0.4 };
        const options = resolveWaterSurfaceOptions({ foamColor: colour, lightDirection: { x: 0, y: -1, z: 0 } });
        colour.r = 1;
        expect(options.foamColor).toEqual({ r: 0.2, g: 0.3, b: 0.4 });
    });

    it.each([
        [{ minDepth: Number.NaN }, /"minDepth" is NaN: it must be a finite number of cells, at least 0/],
        [{ minDepth: -0.1 }, /"minDepth" is -0.1/],
        [{ fadeDepth: 0 }, /"fadeDepth" is 0: it must be a finite number of cells, above 0/],
        [{ deepDepth: Infinity }, /"deepDepth" is Infinity/],
        [{ opacity: 1.5 }, /"opacity" is 1.5: it must be a finite number from 0 to 1/],
        [{ foamSpeed: "fast" }, /"foamSpeed" is "fast": it must be a finite number of cells per water step/],
        [{ shallowColor: { r: 0.1, g: Number.NaN, b: 0.2 } }, /"shallowColor" is \{ r: 0.1, g: NaN, b: 0.2 \}: it must be a colour/],
        [{ deepColor: null }, /"deepColor" is null/],
        [{ lightDirection: { x: 0, y: 0, z: 0 } }, /"lightDirection" is \{ x: 0, y: 0, z: 0 \}: it must be a direction/],
        [{ colour: 1 }, /no option "colour"; its options are shallowColor, deepColor/],
    ])("rejects %p with an error naming the option", (input, message) => {
        expect(() => resolveWaterSurfaceOptions(input as never)).toThrow(message);
    });

    it("rejects options that are not an object", () => {
        expect(() => resolveWaterSurfaceOptions(null as never)).toThrow(/options are null: they must be an object/);
    });
});
