/**
 * Figures that stay true: every figure the README quotes from the bench is the figure of its record
 * in bench/results.json (`npm run docs` writes them), with the date it was recorded, and every
 * record says when and on what machine it was measured.
 */
import { readFileSync } from "node:fs";
import { quotedFigureCount, withBenchFigures, type QuotedRecord } from "../../../scripts/lib/benchFigures.js";

const results = JSON.parse(readFileSync("bench/results.json", "utf8")) as { records: QuotedRecord[] };

const record = (kernel: string, median: number, extra: Partial<QuotedRecord> = {}): QuotedRecord => ({ backend: "cpu", kernel, size: 513, brushRadius: null, threads: 2, median, min: median, max: median, date: "2026-12-07T10:00:00.000Z", machine: "AMD EPYC, 2 cores", ...extra });

describe("bench figures in the documents", () => {
    it("README.md quotes the figures of bench/results.json, with their dates (npm run docs)", () => {
        const readme = readFileSync("README.md", "utf8");
        expect(quotedFigureCount(readme)).toBeGreaterThan(5);
        expect(withBenchFigures(readme, results.records)).toBe(readme);
    });

    it("every record of bench/results.json carries its date and machine", () => {
        expect(results.records.filter((r) => !(typeof r.date === "string" && /^\d{4}-\d{2}-\d{2}T/.test(r.date) && typeof r.machine === "string" && r.machine.length > 0)).map((r) => `${r.backend}/${r.kernel}`)).toEqual([]);
    });

    it("rewrites a figure with the decimals it was written with, and the paragraph's dates", () => {
        const records = [record("pool-cycle-speedup", 1.666), record("pool-rivers-speedup", 1.234, { date: "2026-12-05T09:00:00.000Z" })];
        const text = "A cycle <!-- bench: cpu/pool-cycle-speedup size=513 median -->1.2x, rivers <!-- bench: cpu/pool-rivers-speedup median -->2x (<!-- bench: dates -->2026-01-01).\n\nNo figures here.";
        expect(withBenchFigures(text, records)).toBe("A cycle <!-- bench: cpu/pool-cycle-speedup size=513 median -->1.7x, rivers <!-- bench: cpu/pool-rivers-speedup median -->1x (<!-- bench: dates -->2026-12-05 and 2026-12-07).\n\nNo figures here.");
    });

    it("refuses a marker that names no record or several, a record without its date, and figures without a date", () => {
        const records = [record("pool-cycle-speedup", 1.6), record("pool-cycle-speedup", 1.2, { threads: 1 }), record("old", 1, { date: undefined })];
        const dated = (figure: string) => `${figure} (<!-- bench: dates -->2026-01-01)`;
        expect(() => withBenchFigures(dated("<!-- bench: cpu/pool-cycle-speedup median -->1.6"), records)).toThrow(/2 records of bench\/results.json match, not one/);
        expect(() => withBenchFigures(dated("<!-- bench: cpu/nothing median -->1.6"), records)).toThrow(/0 records/);
        expect(() => withBenchFigures(dated("<!-- bench: cpu/old median -->1"), records)).toThrow(/carries no date or machine/);
        expect(() => withBenchFigures("<!-- bench: cpu/pool-cycle-speedup threads=2 median -->1.6", records)).toThrow(/not when they were recorded/);
        expect(() => withBenchFigures(dated("<!-- bench: cpu/pool-cycle-speedup cores=2 median -->1.6"), records)).toThrow(/unknown selector "cores"/);
    });
});
