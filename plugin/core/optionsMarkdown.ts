/**
 * The options table as Markdown, generated from `OPTION_SPECS` into docs/simulation.md and the
 * README (scripts/update-docs.ts; a test fails if either is stale).
 */
import { OPTION_SPECS, describeAllowedValues } from "./optionsTable.js";

/** Marker lines the generated table sits between. */
export const OPTIONS_TABLE_BEGIN = "<!-- options-table:begin (generated from plugin/core/optionsTable.ts by npm run docs) -->";
export const OPTIONS_TABLE_END = "<!-- options-table:end -->";

/** One Markdown table of every option: path, default, allowed values, unit, description. */
export function optionsTableMarkdown(): string {
    const rows = OPTION_SPECS.map((spec) => {
        const live = spec.tunable ? "" : " Fixed once attached.";
        return `| \`${spec.path}\` | \`${JSON.stringify(spec.defaultValue)}\` | ` +
            `${describeAllowedValues(spec)} | ${spec.unit || "-"} | ${spec.description}${live} |`;
    });
    return ["| Option | Default | Allowed | Unit | Meaning |", "| --- | --- | --- | --- | --- |", ...rows].join("\n");
}

/** `document` with the text between the markers replaced by the current table. */
export function withOptionsTable(document: string): string {
    const begin = document.indexOf(OPTIONS_TABLE_BEGIN);
    const end = document.indexOf(OPTIONS_TABLE_END);
    if (begin < 0 || end < begin) {
        throw new Error("The document has no options-table markers.");
    }
    return document.slice(0, begin + OPTIONS_TABLE_BEGIN.length) + "\n" + optionsTableMarkdown() + "\n" + document.slice(end);
}
