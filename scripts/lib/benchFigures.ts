/**
 * The bench figures a document quotes, kept true: each is written after a marker naming its record
 * in `bench/results.json`, and `npm run docs` rewrites it from that record (with the decimals it
 * was written with), so a re-recorded bench changes the document with it; the docs test fails
 * when the two differ. A marker of the recording dates rewrites to the dates of the figures quoted
 * in its paragraph.
 *
 *   a 513² cycle on 2 workers takes <!-- bench: cpu/pool-cycle-speedup size=513 threads=2 median -->1.6x less time
 *   (`npm run bench`, <!-- bench: dates -->2026-12-07)
 *
 * A figure's marker: `backend/kernel`, then any of `size=`, `threads=`, `budget=` (ms), `brush=`
 * to tell the record from others of its kernel (exactly one must match), then the field quoted:
 * `median`, `min` or `max`, optionally `/1000` (milliseconds written as seconds). A paragraph (or a
 * list item) that quotes figures must say when they were recorded.
 */

/** What a figure's marker reads from a record (bench/src/records.ts's `BenchRecord`, and when it was measured). */
export interface QuotedRecord {
    readonly backend: string;
    readonly kernel: string;
    readonly size: number;
    readonly brushRadius: number | null;
    readonly threads: number | null;
    readonly budgetMs?: number;
    readonly median: number;
    readonly min: number;
    readonly max: number;
    readonly date?: string;
    readonly machine?: string;
}

const FIGURE = /<!-- bench: ([\w-]+)\/([\w-]+)((?: \w+=[\d.]+)*) (median|min|max)(\/1000)? -->(-?\d+(?:\.\d+)?)/g;
const DATES = /<!-- bench: dates -->\d{4}-\d{2}-\d{2}(?: and \d{4}-\d{2}-\d{2})*/g;

/** The one record a figure's marker names, or an Error saying why there is none. */
function recordOf(records: readonly QuotedRecord[], backend: string, kernel: string, selectors: string): QuotedRecord {
    const wanted = Object.fromEntries(selectors.trim().split(" ").filter(Boolean).map((pair) => pair.split("=")));
    const fields: Record<string, (record: QuotedRecord) => unknown> = { size: (r) => r.size, threads: (r) => r.threads, budget: (r) => r.budgetMs, brush: (r) => r.brushRadius };
    for (const name of Object.keys(wanted)) if (!fields[name]) throw new Error(`bench marker ${backend}/${kernel}: unknown selector "${name}" (size, threads, budget, brush).`);
    const found = records.filter((r) => r.backend === backend && r.kernel === kernel && Object.entries(wanted).every(([name, value]) => fields[name](r) === Number(value)));
    if (found.length !== 1) throw new Error(`bench marker ${backend}/${kernel}${selectors}: ${found.length} records of bench/results.json match, not one.`);
    const [record] = found;
    if (!record.date || !record.machine) throw new Error(`bench marker ${backend}/${kernel}${selectors}: its record carries no date or machine (re-record it with npm run bench).`);
    return record;
}

/** `text` with every marked figure and every paragraph's recording dates rewritten from `records`. */
export function withBenchFigures(text: string, records: readonly QuotedRecord[]): string {
    return text
        // Paragraphs, and a list's items each on its own.
        .split(/(\n\s*\n|\n(?=- ))/)
        .map((paragraph) => {
            const dates = new Set<string>();
            const figures = paragraph.replace(FIGURE, (_match, backend: string, kernel: string, selectors: string, field: "median" | "min" | "max", thousandth: string | undefined, written: string) => {
                const record = recordOf(records, backend, kernel, selectors);
                dates.add(record.date!.slice(0, 10));
                const decimals = written.split(".")[1]?.length ?? 0;
                const value = record[field] / (thousandth ? 1000 : 1);
                return `<!-- bench: ${backend}/${kernel}${selectors} ${field}${thousandth ?? ""} -->${value.toFixed(decimals)}`;
            });
            if (dates.size > 0 && !DATES.test(figures)) throw new Error(`a paragraph quotes bench figures but not when they were recorded (<!-- bench: dates -->): "${paragraph.trim().slice(0, 80)}..."`);
            DATES.lastIndex = 0;
            return figures.replace(DATES, () => {
                if (dates.size === 0) throw new Error("a bench dates marker in a paragraph that quotes no bench figure.");
                return `<!-- bench: dates -->${[...dates].sort().join(" and ")}`;
            });
        })
        .join("");
}

/** How many figures `text` quotes from the bench. */
export function quotedFigureCount(text: string): number {
    return [...text.matchAll(FIGURE)].length;
}
