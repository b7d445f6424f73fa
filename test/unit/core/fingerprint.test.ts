import { Fnv1a64, fingerprintOf } from "../../../plugin/core/fingerprint.js";

describe("Fnv1a64", () => {
    it.each([
        ["", "cbf29ce484222325"],
        ["a", "af63dc4c8601ec8c"],
        ["foobar", "85944171f73967e8"],
    ])("hashes %j like the reference FNV-1a 64", (text, expected) => {
        const hash = new Fnv1a64();
        hash.ascii(text);
        expect(hash.hex()).toBe(expected);
    });
});

describe("fingerprintOf", () => {
    const base = { width: 2, depth: 2, cycle: 3, batch: 1, heights: new Int32Array([1, -2, 3, 4]), suspended: new Int32Array(4), drainageArea: new Int32Array([1, 1, 1, 1]), fillLevels: new Int32Array([1, -2, 3, 4]) };

    it("changes when any covered field changes", () => {
        const reference = fingerprintOf(base);
        expect(fingerprintOf({ ...base, cycle: 4 })).not.toBe(reference);
        expect(fingerprintOf({ ...base, batch: 0 })).not.toBe(reference);
        expect(fingerprintOf({ ...base, heights: new Int32Array([1, -2, 3, 5]) })).not.toBe(reference);
        expect(fingerprintOf({ ...base, suspended: new Int32Array([0, 0, 0, -1]) })).not.toBe(reference);
        expect(fingerprintOf({ ...base, drainageArea: new Int32Array([1, 2, 1, 1]) })).not.toBe(reference);
        expect(fingerprintOf({ ...base, fillLevels: new Int32Array([1, -1, 3, 4]) })).not.toBe(reference);
        expect(fingerprintOf({ ...base })).toBe(reference);
    });
});
