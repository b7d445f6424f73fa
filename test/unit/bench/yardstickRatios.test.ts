/**
 * The benchmark's ratios (scripts/lib/yardstickRatios.ts, which bench/src/cpuMain.ts reports): each divides a figure by a yardstick measured
 * just before it where there is one, else by the start-of-run yardstick, and says which. Made-up
 * records; no time is measured.
 */
import { yardstickRatios, type RatioRecord } from "../../../scripts/lib/yardstickRatios.js";

const record = (kernel: string, size: number, median: number, threads = 1, brushRadius: number | null = null): RatioRecord => ({
    backend: "cpu",
    kernel,
    size,
    brushRadius,
    threads,
    unit: kernel === "pool-rivers" ? "ms" : "steps/s",
    median,
    min: median,
    max: median,
    runs: 1,
    detail: "",
});

const records = [
    record("yardstick-c-walk", 512, 20e6, 1, 3),
    record("yardstick-js-walk", 512, 15e6, 1, 3),
    record("yardstick-js-thermal", 1024, 30e6),
    record("droplet", 512, 10e6, 1, 3),
    record("thermal", 1024, 45e6),
    record("rivers", 512, 11e6),
    record("pool-rivers", 513, 16, 2),
];

const ratio = (ratios: RatioRecord[], kernel: string) => ratios.find((r) => r.kernel === kernel)!;

describe("yardstickRatios", () => {
    it("divides by the start-of-run yardsticks where none was measured beside the figure", () => {
        const ratios = yardstickRatios(records);
        expect(ratio(ratios, "ratio-walk-vs-c").median).toBeCloseTo(0.5, 12);
        expect(ratio(ratios, "ratio-walk-vs-js").median).toBeCloseTo(10 / 15, 12);
        expect(ratio(ratios, "ratio-thermal-vs-js").median).toBeCloseTo(1.5, 12);
        // The flow figure, 0.7 M cells/s where the C walk did 13.1 M, scaled to a 20 M C walk.
        const flow = (0.7e6 * 20e6) / 13.1e6;
        expect(ratio(ratios, "ratio-rivers-vs-flow").median).toBeCloseTo(11e6 / flow, 9);
        expect(ratio(ratios, "ratio-pool-rivers-vs-flow").median).toBeCloseTo((513 * 513) / 0.016 / flow, 9);
        expect(ratio(ratios, "ratio-pool-rivers-vs-flow").threads).toBe(2);
        for (const r of ratios) expect(r.detail).toContain("at the start of the run");
    });

    it("divides by the yardstick measured just before the figure where there is one", () => {
        const adjacent = new Map([
            ["ratio-rivers-vs-flow", 10e6],
            ["ratio-walk-vs-js", 12e6],
        ]);
        const ratios = yardstickRatios(records, adjacent);
        expect(ratio(ratios, "ratio-rivers-vs-flow").median).toBeCloseTo(11e6 / ((0.7e6 * 10e6) / 13.1e6), 9);
        expect(ratio(ratios, "ratio-rivers-vs-flow").detail).toContain("beside the figure");
        expect(ratio(ratios, "ratio-walk-vs-js").median).toBeCloseTo(10 / 12, 12);
        // The others keep the start-of-run yardsticks.
        expect(ratio(ratios, "ratio-walk-vs-c").median).toBeCloseTo(0.5, 12);
        expect(ratio(ratios, "ratio-pool-rivers-vs-flow").detail).toContain("at the start of the run");
    });

    it("leaves out a ratio whose figure or yardstick is missing", () => {
        const ratios = yardstickRatios(records.filter((r) => r.kernel !== "yardstick-c-walk"));
        expect(ratios.map((r) => r.kernel).sort()).toEqual(["ratio-thermal-vs-js", "ratio-walk-vs-js"]);
    });
});
