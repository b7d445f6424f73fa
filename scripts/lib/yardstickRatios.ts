/**
 * The ratios the benchmark states issue 17's CPU targets in (`bench/src/yardsticks.ts` measures the
 * yardsticks, `bench/src/cpuMain.ts` the figures): a pure function of the records, here so the
 * benchmarks and the tests share it (test/unit/bench/yardstickRatios.test.ts).
 */

/**
 * The fields every benchmark record has, which the ratios read and write (`BenchRecord` in
 * bench/src/records.ts adds those of some figures).
 */
export interface RatioRecord {
    /** Where it ran: `cpu`, `webgpu-dawn`, `webgpu-chromium`, `component-chromium`. */
    backend: string;
    /**
     * What ran: a kernel (`droplet`, `droplet-masked`, `thermal`, `rivers`, `maps-texture`,
     * `maps-readback`) or a component figure (`frame-gpu`, `frame-cpu`, `frames-per-cycle`,
     * `batches-per-frame`; a suffix such as `-maps` for a variant of the component's options;
     * `erodeAt-frames`, `erodeAt-gpu-ms`).
     */
    kernel: string;
    /** Vertices per side of the square field. */
    size: number;
    /** Brush radius in cells (null where it does not apply: thermal, rivers, maps). */
    brushRadius: number | null;
    /** CPU threads (null for GPU figures). */
    threads: number | null;
    /** `steps/s`, `cells/s`, `ms`, `frames`, or `x` (a ratio of two figures of the same run). */
    unit: string;
    median: number;
    min: number;
    max: number;
    /** Measured runs behind median, min and max. */
    runs: number;
    /** How it was measured (work per run, timing method, frame budget...). */
    detail: string;
}

/**
 * The flow operator's figure issue 17 measured on one host (2026-11-30, `npm run bench -- --quick`):
 * 0.7 M cells/s one thread, where the C walk did 13.1 M steps/s. Its target for the river operator
 * (10x that) is a ratio like the others, so the figure is scaled by this run's C walk (the one
 * measured just before the river figure, where it was).
 */
const ISSUE_FLOW_CELLS_PER_S = 0.7e6;
const ISSUE_C_WALK_STEPS_PER_S = 13.1e6;

/** Yardstick medians measured beside the figure of each ratio (`measureYardstickNow`: just before it, or once before each of its runs), by the ratio's kernel. */
export type AdjacentYardsticks = ReadonlyMap<string, number>;

/**
 * The ratios issue targets are stated in: the project's one-thread droplet walk (512² radius 3)
 * over the C and JS walks, its one-thread thermal (1024²) over the JS thermal, and its river
 * operator (one thread at 512², the component's pool at 513² on every core) over the issue's flow
 * figure scaled by the C walk, from medians of the same run. Each ratio takes its yardstick from
 * `adjacent` where it was measured beside the figure, else from the start-of-run records.
 */
export function yardstickRatios(records: readonly RatioRecord[], adjacent: AdjacentYardsticks = new Map()): RatioRecord[] {
    const find = (kernel: string, size: number, threads: number | null) => records.find((r) => r.kernel === kernel && r.size === size && r.threads === threads && (kernel !== "droplet" || r.brushRadius === 3));
    const median = (kernel: string, size: number, threads: number | null) => find(kernel, size, threads)?.median;
    const ratios: RatioRecord[] = [];
    // The yardstick of ratio `kernel`: measured beside its figure, else at the start of the run.
    const stick = (kernel: string, yardstick: string, size: number) => {
        const near = adjacent.get(kernel);
        return near !== undefined ? { value: near, when: `measured beside the figure, just before it or once before each of its runs (median)` } : { value: median(yardstick, size, 1), when: "measured at the start of the run (median)" };
    };
    const add = (kernel: string, ours: number | undefined, theirs: { value: number | undefined; when: string }, size: number, detail: string, threads = 1) => {
        if (ours !== undefined && theirs.value !== undefined) {
            const value = ours / theirs.value;
            ratios.push({ backend: "cpu", kernel, size, brushRadius: kernel.includes("walk") ? 3 : null, threads, unit: "x", median: value, min: value, max: value, runs: 1, detail: `${detail}, ${theirs.when}` });
        }
    };
    const walk = median("droplet", 512, 1);
    add("ratio-walk-vs-c", walk, stick("ratio-walk-vs-c", "yardstick-c-walk", 512), 512, "one-thread droplet steps/s (512² r3, median) over the C walk's");
    add("ratio-walk-vs-js", walk, stick("ratio-walk-vs-js", "yardstick-js-walk", 512), 512, "one-thread droplet steps/s (512² r3, median) over the plain-JS walk's");
    add("ratio-thermal-vs-js", median("thermal", 1024, 1), stick("ratio-thermal-vs-js", "yardstick-js-thermal", 1024), 1024, "one-thread thermal cells/s (1024², median) over the plain-JS thermal's");
    // The issue's flow figure scaled by a C walk: where the C walk did c steps/s, 0.7 M x c / 13.1 M.
    const flowOf = (cWalk: { value: number | undefined; when: string }) => ({ value: cWalk.value === undefined ? undefined : (ISSUE_FLOW_CELLS_PER_S * cWalk.value) / ISSUE_C_WALK_STEPS_PER_S, when: `the C walk ${cWalk.when}` });
    const flowDetail = `over issue 17's flow figure (0.7 M cells/s where the C walk did 13.1 M steps/s) scaled by the C walk`;
    add("ratio-rivers-vs-flow", median("rivers", 512, 1), flowOf(stick("ratio-rivers-vs-flow", "yardstick-c-walk", 512)), 512, `one-thread river batch cells/s (512², from a new state, median) ${flowDetail}`);
    const pool = records.filter((r) => r.kernel === "pool-rivers" && r.size === 513 && (r.threads ?? 1) > 1).sort((a, b) => (b.threads ?? 0) - (a.threads ?? 0))[0];
    if (pool) add("ratio-pool-rivers-vs-flow", (513 * 513) / (pool.median / 1000), flowOf(stick("ratio-pool-rivers-vs-flow", "yardstick-c-walk", 512)), 513, `river batch cells/s on the component's pool (513², ${pool.threads} workers sharing memory, median ms) ${flowDetail}`, pool.threads ?? 1);
    return ratios;
}
