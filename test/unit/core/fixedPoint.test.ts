import { FIXED_ONE, HEIGHT_MAX_FIXED, HEIGHT_MIN_FIXED, heightsToFixed, isqrt32, metresToFixed, mulQ16, mulQ16Sat, SATURATION_LIMIT, sqrtQ16 } from "../../../plugin/core/fixedPoint.js";

describe("fixed point", () => {
    it("converts metres to 1/65536 m, rounding to nearest", () => {
        expect(metresToFixed(1)).toBe(65536);
        expect(metresToFixed(-2.5)).toBe(-163840);
        expect(metresToFixed(1 / 131072)).toBe(1); // half a unit rounds up
        expect(metresToFixed(0.4 / 65536)).toBe(0);
        expect(Array.from(heightsToFixed([0, 1.5, -16384]))).toEqual([0, 98304, HEIGHT_MIN_FIXED]);
    });

    it("rejects NaN, infinities and heights outside +-16384 cells, naming the index", () => {
        expect(() => heightsToFixed([0, NaN])).toThrow(/heights\[1\] is NaN/);
        expect(() => heightsToFixed([Infinity])).toThrow(/heights\[0\] is Infinity/);
        expect(() => heightsToFixed([0, 0, 16384])).toThrow(/heights\[2\] is 16384: heights must be finite numbers in \[-16384, 16383.99/);
        expect(() => heightsToFixed([-16384.001])).toThrow(/\[-16384, 16383.99/);
        // The range counts cells: with 10 m cells it is +-163 840 m, and one unit is 10/65536 m.
        expect(heightsToFixed([100000], "heights", undefined, 10)[0]).toBe(10000 * FIXED_ONE);
        expect(() => heightsToFixed([200000], "heights", undefined, 10)).toThrow(/\[-163840, 163839.9/);
        expect(HEIGHT_MAX_FIXED - HEIGHT_MIN_FIXED).toBe(2 ** 31 - 1); // any difference of two heights fits an i32
    });

    it("mulQ16 floors a * f / 2^16", () => {
        expect(mulQ16(3 * FIXED_ONE, FIXED_ONE / 2)).toBe(98304);
        expect(mulQ16(-1, 1)).toBe(-1); // floor, not truncation
        expect(mulQ16(2 ** 31 - 1, FIXED_ONE)).toBe(2 ** 31 - 1);
        expect(mulQ16(-(2 ** 31), FIXED_ONE)).toBe(-(2 ** 31));
    });

    it("mulQ16Sat saturates at 2^30 - 1", () => {
        expect(mulQ16Sat(FIXED_ONE * 2, FIXED_ONE * 3)).toBe(FIXED_ONE * 6);
        expect(mulQ16Sat(2 ** 31 - 1, 2 ** 31 - 1)).toBe(SATURATION_LIMIT);
        expect(mulQ16Sat(2 ** 23, 2 ** 23)).toBe(SATURATION_LIMIT);
    });

    it("isqrt32 and sqrtQ16 give integer roots", () => {
        expect(isqrt32(2 ** 32 - 1)).toBe(65535);
        expect(isqrt32(65535 * 65535 - 1)).toBe(65534);
        expect(sqrtQ16(4 * FIXED_ONE)).toBe(2 * FIXED_ONE);
        expect(sqrtQ16(FIXED_ONE / 4)).toBe(FIXED_ONE / 2);
        expect(sqrtQ16(0)).toBe(0);
        // Large inputs keep about 15 significant bits.
        expect(Math.abs(sqrtQ16(2 ** 30 - 1) - Math.sqrt((2 ** 30 - 1) * FIXED_ONE))).toBeLessThan(2 ** 8);
    });
});
