/**
 * Inspector tuning: the ground's `inspectableCustomProperties` (a Babylon core concept, so the
 * plugin never imports the Inspector or React) get a control per erosion option, built from the one
 * options table: a slider over each number's allowed range, a switch per boolean (each operator's
 * `enabled` among them), a dropdown per choice, buttons to pause/resume, reset, step and flush, and
 * read-only statistics. The Inspector (v2) shows them in the ground's Custom section and writes
 * through the setters below, so a change reaches the running erosion at the next cycle boundary.
 */
import { InspectableType, type IInspectable } from "@babylonjs/core/Misc/iInspectable.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { getOptionValue } from "../core/options.js";
import { OPTION_SPECS, type OptionSpec } from "../core/optionsTable.js";

/** What the inspectables need from the component. */
export interface InspectableErosion {
    readonly options: object;
    readonly isRunning: boolean;
    readonly cyclesCompleted: number;
    readonly progress: number;
    readonly backend: string | null;
    readonly lastFrame: { batches: number; estimatedMs: number; measuredMs: number | null };
    readonly frameStats: { frames: number; erosion: { medianMs: number; p95Ms: number; maxMs: number } };
    setOption(path: string, value: unknown): void;
    start(): void;
    pause(): void;
    runCycles(count: number): Promise<void>;
    flush(): Promise<void>;
    readonly history: { reset(): Promise<void>; undo(): Promise<unknown>; redo(): Promise<unknown> };
}

/** Prefix of every property the component defines on the ground for the Inspector. */
export const INSPECTABLE_PREFIX = "erosion_";

/** The ground property behind an option's control, e.g. `erosion_hydraulic_inertia`. */
export function inspectablePropertyName(path: string): string {
    return INSPECTABLE_PREFIX + path.replace(/\./g, "_");
}

function coerce(spec: OptionSpec, value: unknown): unknown {
    if (spec.kind === "integer" && typeof value === "number") {
        return Math.round(value);
    }
    if (spec.kind === "enum" && spec.values) {
        // Dropdowns hand values back as given or as strings; match either.
        return spec.values.find((candidate) => candidate === value || String(candidate) === String(value)) ?? value;
    }
    return value;
}

function labelOf(spec: OptionSpec): string {
    return `${spec.group ? `${spec.group} ` : ""}${spec.key}${spec.unit && spec.kind !== "enum" && spec.kind !== "boolean" ? ` (${spec.unit})` : ""}`;
}

/**
 * Adds the erosion controls to `ground.inspectableCustomProperties` and defines the properties they
 * bind to. Returns a function that removes both.
 * @param report where errors from the buttons' asynchronous work go
 */
export function installInspectables(ground: GroundMesh, erosion: InspectableErosion, report: (message: string, error: unknown) => void): () => void {
    const properties: PropertyDescriptorMap = {};
    const controls: IInspectable[] = [];
    for (const spec of OPTION_SPECS) {
        const propertyName = inspectablePropertyName(spec.path);
        properties[propertyName] = {
            configurable: true,
            enumerable: false,
            get: () => getOptionValue(erosion.options as never, spec.path),
            set: (value: unknown) => {
                try {
                    erosion.setOption(spec.path, coerce(spec, value));
                } catch (error) {
                    report(`Inspector: ${error instanceof Error ? error.message : String(error)}`, error);
                }
            },
        };
        if (!spec.tunable) {
            controls.push({ label: labelOf(spec), propertyName, type: InspectableType.Tab });
        } else if (spec.kind === "boolean") {
            controls.push({ label: labelOf(spec), propertyName, type: InspectableType.Checkbox });
        } else if (spec.kind === "enum") {
            controls.push({
                label: labelOf(spec),
                propertyName,
                type: InspectableType.Options,
                options: (spec.values ?? []).map((value) => ({ label: String(value), value: value as number })),
            });
        } else {
            controls.push({
                label: labelOf(spec),
                propertyName,
                type: InspectableType.Slider,
                min: spec.min,
                max: spec.max,
                step: spec.step ?? (spec.kind === "integer" ? 1 : 0.01),
            });
        }
    }
    const run = (what: string, task: () => Promise<void>) => () => {
        task().catch((error) => report(`Inspector ${what} failed: ${error instanceof Error ? error.message : String(error)}`, error));
    };
    controls.push(
        {
            label: "Pause / resume",
            propertyName: `${INSPECTABLE_PREFIX}toggle`,
            type: InspectableType.Button,
            callback: () => (erosion.isRunning ? erosion.pause() : erosion.start()),
        },
        {
            label: "Reset to the original terrain",
            propertyName: `${INSPECTABLE_PREFIX}reset`,
            type: InspectableType.Button,
            callback: run("reset", () => erosion.history.reset()),
        },
        { label: "Step one cycle", propertyName: `${INSPECTABLE_PREFIX}step`, type: InspectableType.Button, callback: run("step", () => erosion.runCycles(1)) },
        {
            label: "Undo the last change",
            propertyName: `${INSPECTABLE_PREFIX}undo`,
            type: InspectableType.Button,
            callback: run("undo", async () => void (await erosion.history.undo())),
        },
        {
            label: "Redo",
            propertyName: `${INSPECTABLE_PREFIX}redo`,
            type: InspectableType.Button,
            callback: run("redo", async () => void (await erosion.history.redo())),
        },
        { label: "Flush CPU data", propertyName: `${INSPECTABLE_PREFIX}flush`, type: InspectableType.Button, callback: run("flush", () => erosion.flush()) }
    );
    const statistics: [string, string, () => string][] = [
        ["backend", "Backend", () => erosion.backend ?? "starting"],
        ["running", "Running", () => String(erosion.isRunning)],
        ["cycles", "Cycles completed", () => String(erosion.cyclesCompleted)],
        ["progress", "Cycle progress", () => `${Math.round(erosion.progress * 100)}%`],
        ["batches", "Batches last frame", () => String(erosion.lastFrame.batches)],
        ["cost", "Erosion cost last frame", () => `${(erosion.lastFrame.measuredMs ?? erosion.lastFrame.estimatedMs).toFixed(2)} ms`],
        [
            "frames",
            "Erosion frames (median / p95 / max)",
            () =>
                `${erosion.frameStats.erosion.medianMs.toFixed(1)} / ${erosion.frameStats.erosion.p95Ms.toFixed(1)} ` +
                    `/ ${erosion.frameStats.erosion.maxMs.toFixed(1)} ms of ${erosion.frameStats.frames}`,
        ],
    ];
    for (const [key, label, read] of statistics) {
        const propertyName = `${INSPECTABLE_PREFIX}stat_${key}`;
        properties[propertyName] = { configurable: true, enumerable: false, get: read, set: () => undefined };
        controls.push({ label, propertyName, type: InspectableType.Tab });
    }
    Object.defineProperties(ground, properties);
    ground.inspectableCustomProperties = [...(ground.inspectableCustomProperties ?? []), ...controls];
    return () => {
        ground.inspectableCustomProperties = (ground.inspectableCustomProperties ?? []).filter((control) => !controls.includes(control));
        for (const name of Object.keys(properties)) {
            delete (ground as unknown as Record<string, unknown>)[name];
        }
    };
}
