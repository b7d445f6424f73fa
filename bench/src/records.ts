/**
 * Benchmark records, their statistics and the table `npm run bench` prints.
 *
 * One record per figure. `median`, `min` and `max` are over the measured runs (after warm-up runs
 * that are not recorded). Every record carries what it measured in `detail`.
 */
import type { RatioRecord } from "../../scripts/lib/yardstickRatios.js";

/** One figure: the fields every record has (`RatioRecord`, which the ratios read) and those of some. */
export interface BenchRecord extends RatioRecord {
    /** Frame budget of a component figure, in milliseconds. */
    budgetMs?: number;
    /** Multi-thread CPU figures: speed-up over one thread, divided by the threads. */
    scalingPerCore?: number;
    /** When its part started (ISO 8601), the machine and the commit it was measured on: `scripts/bench.mjs` adds them. */
    date?: string;
    machine?: string;
    commit?: string;
}

/** What was measured on, next to the records in `bench/results.json`. */
export interface BenchEnvironment {
    date: string;
    node: string;
    platform: string;
    cpuModel: string;
    cores: number;
    memoryGiB: number;
    quick: boolean;
    /** Adapter description per GPU backend. */
    adapters: Record<string, string>;
}

/** median, min and max of some numbers. */
export function summarize(values: readonly number[]): { median: number; min: number; max: number } {
    if (values.length === 0) {
        return { median: NaN, min: NaN, max: NaN };
    }
    const sorted = [...values].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    return { median, min: sorted[0], max: sorted[sorted.length - 1] };
}

/** A rate or a duration for humans: 10.2 M, 1.35 G, 2.41 ms. */
export function formatValue(value: number, unit: string): string {
    if (!Number.isFinite(value)) {
        return "-";
    }
    if (unit.endsWith("/s")) {
        // Rounded to 3 digits first, so 999,950 reads 1.00 M, not 1.00e+3 k.
        const rounded = Number(value.toPrecision(3));
        for (const [scale, suffix] of [
            [1e9, "G"],
            [1e6, "M"],
            [1e3, "k"],
        ] as const) {
            if (Math.abs(rounded) >= scale) {
                return `${(rounded / scale).toPrecision(3)} ${suffix}`;
            }
        }
        return rounded.toPrecision(3);
    }
    if (unit === "x") {
        return value.toFixed(2);
    }
    if (unit === "ms") {
        return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
    }
    return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** The columns of both tables, and which of them hold numbers (right-aligned). */
const COLUMNS = ["backend", "kernel", "size", "brush", "threads", "budget", "median", "min", "max", "unit"];
const NUMERIC_COLUMNS = new Set([2, 3, 4, 5, 6, 7, 8]);

/** One record's cells, in the order of `COLUMNS`. */
function recordCells(record: BenchRecord): string[] {
    return [
        record.backend,
        record.kernel,
        `${record.size}²`,
        record.brushRadius === null ? "-" : String(record.brushRadius),
        record.threads === null ? "-" : String(record.threads),
        record.budgetMs === undefined ? "-" : `${record.budgetMs} ms`,
        formatValue(record.median, record.unit),
        formatValue(record.min, record.unit),
        formatValue(record.max, record.unit),
        record.unit,
    ];
}

/** The records as a fixed-width text table, one line each, grouped as given. */
export function formatTable(records: readonly BenchRecord[]): string {
    const rows = records.map(recordCells);
    const widths = COLUMNS.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
    const line = (cells: string[]) => cells.map((cell, column) => (NUMERIC_COLUMNS.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join("  ");
    const lines = [line(COLUMNS), widths.map((width) => "-".repeat(width)).join("  ")];
    rows.forEach((row, index) => {
        if (index > 0 && records[index].backend !== records[index - 1].backend) {
            lines.push("");
        }
        lines.push(line(row));
    });
    return lines.join("\n");
}

/** The records as a Markdown table (for bench/README.md). */
export function formatMarkdownTable(records: readonly BenchRecord[]): string {
    const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
    const alignment = COLUMNS.map((_, column) => (NUMERIC_COLUMNS.has(column) ? "---:" : "---"));
    return [row(COLUMNS), row(alignment), ...records.map((record) => row(recordCells(record)))].join("\n");
}

/**
 * Multi-thread CPU figures against the one-thread figure of the same work: sets their
 * `scalingPerCore` (speed-up / threads) and returns a line for each.
 */
export function cpuScaling(records: BenchRecord[]): string[] {
    const lines: string[] = [];
    for (const record of records) {
        // Rates (per second) and times scale with threads; other units (memory, ratios) do not.
        if (record.backend !== "cpu" || record.threads === null || record.threads === 1 || !(record.unit.endsWith("/s") || record.unit === "ms" || record.unit === "s")) {
            continue;
        }
        const single = records.find((other) => other.backend === "cpu" && other.kernel === record.kernel && other.size === record.size && other.brushRadius === record.brushRadius && other.threads === 1);
        if (!single) {
            continue;
        }
        // Rates grow with threads; times shrink.
        const speedUp = record.unit.endsWith("/s") ? record.median / single.median : single.median / record.median;
        record.scalingPerCore = Math.round((speedUp / record.threads) * 1000) / 1000;
        lines.push(`  ${record.kernel} ${record.size}² r${record.brushRadius ?? "-"}: ${record.threads} threads ${speedUp.toFixed(2)}x one thread (${((100 * speedUp) / record.threads).toFixed(0)}% per core)`);
    }
    return lines;
}

/**
 * The estimate for an H200 (droplet walk bound by L2 atomics): G steps/s by brush radius.
 * Informs, does not gate.
 */
export const H200_ESTIMATE: Record<number, [number, number]> = { 3: [6e9, 12e9], 0: [25e9, 45e9] };

/** Lines comparing droplet figures with the H200 estimate, when the adapter is an H200. */
export function h200Comparison(records: readonly BenchRecord[], adapter: string): string[] {
    if (!/H200/i.test(adapter)) {
        return [];
    }
    return records
        .filter((record) => record.kernel === "droplet" && record.brushRadius !== null && H200_ESTIMATE[record.brushRadius])
        .map((record) => {
            const [low, high] = H200_ESTIMATE[record.brushRadius!];
            return `  ${record.backend} droplet ${record.size}² r${record.brushRadius}: ${formatValue(record.median, record.unit)} steps/s = ${((100 * record.median) / high).toFixed(0)}-${((100 * record.median) / low).toFixed(0)}% of the ${low / 1e9}-${high / 1e9} G estimate`;
        });
}

/**
 * Runs `measure` unrecorded until it has run `counts.warmup` times and for at least
 * `counts.warmupMs` (so the JIT, the GPU driver and the caches have settled), then `counts.runs`
 * times recorded; returns the recorded values.
 */
export async function repeat(counts: RunCounts, measure: (run: number) => Promise<number> | number): Promise<number[]> {
    const started = performance.now();
    let run = 0;
    while (run < counts.warmup || performance.now() - started < counts.warmupMs) {
        await measure(run++);
    }
    const values: number[] = [];
    for (let recorded = 0; recorded < counts.runs; recorded++) {
        values.push(await measure(run++));
    }
    return values;
}

/**
 * Work units a run should do to take about `targetMs`, from a run of `units` that took `seconds`:
 * at least 1, at most `max`.
 */
export function calibrate(seconds: number, units: number, targetMs: number, max: number): number {
    const perUnitMs = (seconds * 1000) / units;
    return Math.max(1, Math.min(max, Math.round(targetMs / Math.max(perUnitMs, 1e-3))));
}

/** Warm-up and measured runs per figure. */
export interface RunCounts {
    /** Fewest warm-up runs. */
    warmup: number;
    /** Least time spent warming up, milliseconds. */
    warmupMs: number;
    /** Measured runs. */
    runs: number;
}

/** `--quick`: fewer runs and a shorter warm-up, the same records. */
export function runCounts(quick: boolean): RunCounts {
    return quick ? { warmup: 1, warmupMs: 250, runs: 3 } : { warmup: 2, warmupMs: 1000, runs: 7 };
}
