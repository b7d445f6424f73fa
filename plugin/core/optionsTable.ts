/**
 * The one table of erosion options: identifiers, units, defaults and allowed ranges.
 *
 * The defaults object, option validation, `docs/simulation.md`'s options table, the README and
 * the Inspector's sliders are all derived from this table, so none of them can drift from the
 * others. Add an option here and everything else picks it up.
 */

/** How an option's value is typed and checked. */
export type OptionKind = "integer" | "number" | "boolean" | "enum";

/** One row of the options table. */
export interface OptionSpec {
    /** Dotted path, e.g. `"hydraulic.inertia"`. */
    readonly path: string;
    /** Group the option belongs to (`""` for top-level options). */
    readonly group: "" | "hydraulic" | "rivers" | "thermal" | "water" | "materials";
    /** Key inside its group. */
    readonly key: string;
    readonly kind: OptionKind;
    readonly defaultValue: number | boolean | string;
    /** Smallest allowed value (integer and number kinds). */
    readonly min?: number;
    /** Largest allowed value (integer and number kinds). */
    readonly max?: number;
    /** Allowed values (enum kind; numbers for numeric enums such as `neighbours`). */
    readonly values?: readonly (string | number)[];
    /** Unit, as shown in docs and the Inspector. */
    readonly unit: string;
    /** One-line description. */
    readonly description: string;
    /** Slider step in the Inspector. */
    readonly step?: number;
    /** False for options that cannot change once the component is attached. */
    readonly tunable: boolean;
    /**
     * A runtime setting (where and when erosion runs: backend, workers, start, frame budget, cycle
     * limit), not a simulation option: it never changes the terrain, and snapshots, checkpoints and
     * saves leave it out (`RUNTIME_SETTINGS`).
     */
    readonly runtime: boolean;
}

function option(spec: Omit<OptionSpec, "group" | "key" | "tunable" | "runtime"> & { tunable?: boolean; runtime?: boolean }): OptionSpec {
    const dot = spec.path.indexOf(".");
    const group = (dot < 0 ? "" : spec.path.slice(0, dot)) as OptionSpec["group"];
    const key = dot < 0 ? spec.path : spec.path.slice(dot + 1);
    return { ...spec, group, key, tunable: spec.tunable ?? true, runtime: spec.runtime ?? false };
}

/** Every option, in documentation order. */
export const OPTION_SPECS: readonly OptionSpec[] = [
    option({
        path: "seed", kind: "integer", defaultValue: 1, min: 0, max: 4294967295, step: 1, unit: "u32",
        description: "Seed of the droplet placement hash: same heights, options and seed give the same terrain.",
    }),
    option({
        path: "backend", kind: "enum", defaultValue: "auto", values: ["auto", "webgpu", "cpu"], unit: "",
        description: "Where kernels run: WebGPU compute shaders, the CPU reference, or WebGPU when the engine supports compute shaders.", tunable: false,
        runtime: true,
    }),
    option({
        path: "cpuWorkers", kind: "integer", defaultValue: 0, min: 0, max: 64, step: 1, unit: "workers",
        description:
            "Workers the CPU backend runs on (the backend's own worker and helpers; the terrain is the same for any count): 0 picks max(1, logical cores - " +
            "1). They share memory where SharedArrayBuffer is available (Node, a cross-origin isolated page) and copy rows otherwise.",
        tunable: false, runtime: true,
    }),
    option({
        path: "autoStart", kind: "boolean", defaultValue: true, unit: "", description: "Start eroding as soon as the component is attached.", runtime: true,
    }),
    option({
        path: "frameBudgetMs", kind: "number", defaultValue: 2, min: 0.05, max: 1000, step: 0.05, unit: "ms",
        description:
            "Erosion time per frame; at least one batch runs per frame while running, and a batch that does not fit (the rivers' over the whole field; on " +
            "WebGPU a droplet batch too) runs in pieces of about this time over several frames (the same result). Where even the least piece takes longer " +
            "(a software adapter), WebGPU frames of cheaper batches are filled to a piece's time so that frames stay even. Where the rendered frames come " +
            "slower than 10 a second (a software renderer), the batches take the share of each frame this is of a 60 Hz frame (at most half): erosion keeps " +
            "the share of the time it has at 60 frames a second, where one batch a frame made a cycle take minutes.",
        runtime: true,
    }),
    option({
        path: "patchSize", kind: "integer", defaultValue: 64, min: 8, max: 1024, step: 8, unit: "cells",
        description: "Side of the square patches the field is cut into; one batch runs one operator over one patch.",
    }),
    option({
        path: "tileable", kind: "boolean", defaultValue: false, unit: "",
        description:
            "The terrain tiles seamlessly: its last row and column repeat the first, and the river operator routes, erodes and carries sediment across the " +
            "seam and keeps them equal (droplets and thermal treat the edges as edges).",
    }),
    option({
        path: "featureSize", kind: "number", defaultValue: 0, min: 0, max: 100000, step: 0.5, unit: "m",
        description:
            "World-unit mode: metres one cell of the cell-counted options stands for, so the look holds when the ground's subdivisions change (brush, " +
            "droplet path and relaxation steps scale by featureSize / cell size); 0 counts them in the ground's own cells.",
    }),
    option({
        path: "maxCycles", kind: "integer", defaultValue: 0, min: 0, max: 2147483647, step: 1, unit: "cycles",
        description: "Stop after this many cycles since attach or reset; 0 runs without limit.", runtime: true,
    }),
    option({
        path: "undoMemoryMB", kind: "number", defaultValue: 64, min: 0, max: 65536, step: 1, unit: "MiB",
        description:
            "Memory for the checkpoints undo rewinds to: the newest cycle-boundary states that fit are kept, and an undo replays the log from the newest " +
            "one before the input it takes back (from the start when none is).",
        runtime: true,
    }),
    option({
        path: "stallTimeoutMs", kind: "number", defaultValue: 300000, min: 50, max: 3600000, step: 1000, unit: "ms",
        description:
            "How long erosion waits for any one answer from its device or worker (a readback, the GPU's submitted work, a worker's reply, a kernel's " +
            "compile; a bake's tile job) before it counts it as stalled: it reports the stall on onErrorObservable (kind \"stalled\": the operation, the " +
            "batch, the wait) and rebuilds its backend from the last cycle-boundary checkpoint undo keeps, every input since given again at its stamp (the " +
            "same terrain). Generous: at 513² on SwiftShader, on a 2-core machine loaded five times over, a whole cycle in one submit (runCycles) waited " +
            "111 s and a frame of the frame budget 10 s; lower it to hear of a stall sooner.",
        runtime: true,
    }),
    option({
        path: "stallRetries", kind: "integer", defaultValue: 3, min: 0, max: 100, step: 1, unit: "recoveries",
        description:
            "Stalls in a row erosion recovers from; at the next it stops (kind \"stopped\"), the terrain and every read at the last checkpoint, and status " +
            "says why (start() tries again). A cycle completed after a recovery starts the count again.",
        runtime: true,
    }),

    option({ path: "hydraulic.enabled", kind: "boolean", defaultValue: true, unit: "", description: "Run droplet hydraulic erosion." }),
    option({
        path: "hydraulic.dropletsPerBatch", kind: "integer", defaultValue: 1024, min: 1, max: 1048576, step: 1, unit: "droplets",
        description: "Droplets rained on one patch per batch (a sampling density: more resolves the flow better and moves the same material).",
    }),
    option({
        path: "hydraulic.maxSteps", kind: "integer", defaultValue: 64, min: 1, max: 512, step: 1, unit: "steps",
        description: "Longest walk of a droplet; each step is one cell long.",
    }),
    option({
        path: "hydraulic.inertia", kind: "number", defaultValue: 0.3, min: 0, max: 0.99, step: 0.01, unit: "",
        description: "How much of its previous direction a droplet keeps each step (0 follows the gradient).",
    }),
    option({
        path: "hydraulic.capacity", kind: "number", defaultValue: 4, min: 0, max: 64, step: 0.1, unit: "",
        description:
            "Sediment capacity factor: capacity = max(fall, minSlope x cell size) x speed x water x capacity (a height, so it scales with the terrain).",
    }),
    option({
        path: "hydraulic.minSlope", kind: "number", defaultValue: 0.01, min: 0, max: 16, step: 0.001, unit: "slope",
        description: "Smallest slope (rise over run) used for capacity, so droplets on flat ground still carry some sediment.",
    }),
    option({
        path: "hydraulic.erosion", kind: "number", defaultValue: 0.3, min: 0, max: 1, step: 0.01, unit: "",
        description: "Solubility: fraction of the capacity deficit a step picks up.",
    }),
    option({
        path: "hydraulic.deposition", kind: "number", defaultValue: 0.3, min: 0, max: 1, step: 0.01, unit: "",
        description: "Fraction of the capacity surplus a step lays down.",
    }),
    option({
        path: "hydraulic.evaporation", kind: "number", defaultValue: 0.02, min: 0, max: 0.5, step: 0.001, unit: "1/step",
        description: "Fraction of its water a droplet loses each step.",
    }),
    option({
        path: "hydraulic.gravity", kind: "number", defaultValue: 4, min: 0, max: 64, step: 0.1, unit: "(cell/step)^2",
        description: "Speed gained per cell of fall: speed^2 += (fall / cell size) x gravity going down, -= going up (floored at zero).",
    }),
    option({
        path: "hydraulic.initialWater", kind: "number", defaultValue: 1, min: 0.01, max: 16, step: 0.01, unit: "", description: "Water a droplet starts with.",
    }),
    option({
        path: "hydraulic.initialSpeed", kind: "number", defaultValue: 1, min: 0, max: 16, step: 0.1, unit: "cell/step",
        description: "Speed a droplet starts with.",
    }),
    option({
        path: "hydraulic.minWater", kind: "number", defaultValue: 0.01, min: 0, max: 1, step: 0.001, unit: "",
        description: "A droplet whose water falls below this ends its walk.",
    }),
    option({
        path: "hydraulic.brushRadius", kind: "integer", defaultValue: 3, min: 0, max: 8, step: 1, unit: "cells",
        description: "Erosion brush: 0 cuts the four bilinear cells, larger cuts a soft disc of this radius.",
    }),
    option({
        path: "hydraulic.endOfWalk", kind: "enum", defaultValue: "deposit", values: ["deposit", "carry"], unit: "",
        description: "What a droplet still holds when its walk ends: lay it down where the walk ends, or carry it out of the field.",
    }),

    option({
        path: "rivers.enabled", kind: "boolean", defaultValue: true, unit: "",
        description:
            "Run stream-power river erosion: every cell cuts toward where its water goes in proportion to sqrt(drainage area) x slope, and rivers carry the " +
            "sediment down and lay it where they slow.",
    }),
    option({
        path: "rivers.erosion", kind: "number", defaultValue: 0.03, min: 0, max: 10, step: 0.0005, unit: "1/cycle",
        description:
            "Erodibility K: each cycle a cell moves F / (1 + F) of the way down to its receiver, F = erosion x sqrt(drainage area in cells) / run (an " +
            "implicit step: stable for any value).",
    }),
    option({
        path: "rivers.capacity", kind: "number", defaultValue: 0.05, min: 0, max: 64, step: 0.01, unit: "",
        description:
            "Transport capacity: a stream carries capacity x drainage area (cells) x slope (cells of height a cycle: a river carries the material of " +
            "everything upstream); what it holds beyond that it starts to lay down, so lower values build fans and floodplains where slopes fall.",
    }),
    option({
        path: "rivers.deposition", kind: "number", defaultValue: 0.5, min: 0, max: 1, step: 0.01, unit: "",
        description: "Fraction of the load beyond capacity a cell lays down each cycle, never up to the height of the cells draining into it.",
    }),
    option({
        path: "rivers.uplift", kind: "number", defaultValue: 0, min: 0, max: 1, step: 0.0005, unit: "cells/cycle",
        description:
            "Tectonic uplift added to every cell but the field's edge (the base level rivers drain to) each cycle, scaled by the uplift map " +
            "(setMask(\"uplift\", ...)), so a landscape can be grown, not only worn.",
    }),
    option({
        path: "rivers.channelArea", kind: "integer", defaultValue: 20, min: 0, max: 1073741824, step: 1, unit: "cells",
        description:
            "Drainage area from which a vertex is a river channel: what slopes shed into it (thermal) joins the river's load and is carried down instead of " +
            "raising the bed; 0 turns this off.",
    }),
    option({
        path: "rivers.stepsPerBatch", kind: "integer", defaultValue: 32, min: 1, max: 256, step: 1, unit: "steps/batch",
        description: "Drainage-area propagation steps per batch: water from n cells upstream is counted after n steps, spread over batches and cycles.",
    }),

    option({
        path: "water.enabled", kind: "boolean", defaultValue: false, unit: "",
        description:
            "Run shallow-water erosion (the virtual-pipe model of Mei, Decaudin and Hu 2007, integer and exact): rain and springs fill rivers and lakes " +
            "that stay on the ground as state, and the flow cuts and carries sediment. Heavier than the droplets, so off by default.",
    }),
    option({
        path: "water.stepsPerCycle", kind: "integer", defaultValue: 16, min: 1, max: 256, step: 1, unit: "steps/cycle",
        description: "Water steps per cycle: each updates the whole field from the previous step (its seven passes run as classes of every patch).",
    }),
    option({
        path: "water.rain", kind: "number", defaultValue: 0.0005, min: 0, max: 1, step: 0.0001, unit: "cells/step",
        description:
            "Depth of rain added to every vertex each water step, in cells of height (x cell size in metres), times the rain mask (setMask(\"rain\", ...)) " +
            "where one is set.",
    }),
    option({
        path: "water.evaporation", kind: "number", defaultValue: 0.005, min: 0, max: 0.5, step: 0.001, unit: "1/step",
        description:
            "Fraction of each vertex's water that evaporates each water step (with rain r it leaves a sheet of about r / evaporation where nothing flows).",
    }),
    option({
        path: "water.friction", kind: "number", defaultValue: 0.05, min: 0, max: 1, step: 0.01, unit: "1/step",
        description: "Fraction of the flow through each pipe lost each step (1 has no momentum: water moves only down the surface's slope).",
    }),
    option({
        path: "water.capacity", kind: "number", defaultValue: 2, min: 0, max: 64, step: 0.05, unit: "",
        description:
            "Sediment capacity factor: the water at a vertex holds capacity x slope x discharge (discharge in cells of depth moved a step, so the capacity " +
            "grows with depth and speed).",
    }),
    option({
        path: "water.minSlope", kind: "number", defaultValue: 0.01, min: 0, max: 1, step: 0.001, unit: "slope",
        description: "Smallest slope (rise over run) the capacity uses, so water on flat ground still carries some sediment.",
    }),
    option({
        path: "water.dissolving", kind: "number", defaultValue: 0.1, min: 0, max: 1, step: 0.01, unit: "1/step",
        description: "Fraction of the capacity deficit the water picks up each step (at most a quarter of the drop to the lowest neighbour, so no pit is cut).",
    }),
    option({
        path: "water.deposition", kind: "number", defaultValue: 0.1, min: 0, max: 1, step: 0.01, unit: "1/step",
        description: "Fraction of the sediment beyond capacity the water lays down each step (never damming a neighbour's way down).",
    }),
    option({
        path: "water.boundary", kind: "enum", defaultValue: "open", values: ["open", "closed"], unit: "",
        description: "Open edges let water (and the sediment in it) flow off the field; closed edges keep it (a closed field under rain fills up).",
    }),

    option({ path: "thermal.enabled", kind: "boolean", defaultValue: true, unit: "", description: "Run thermal (talus) erosion." }),
    option({
        path: "thermal.talus", kind: "number", defaultValue: 1, min: 0, max: 64, step: 0.01, unit: "slope",
        description: "Angle of repose as a slope (rise over run; talusFromAngle converts degrees): steeper ground sheds material.",
    }),
    option({
        path: "thermal.rate", kind: "number", defaultValue: 0.5, min: 0, max: 1, step: 0.01, unit: "",
        description: "Fraction of the stable maximum moved per step: each neighbour receives rate / (2 x neighbours) of its excess.",
    }),
    option({
        path: "thermal.neighbours", kind: "enum", defaultValue: 8, values: [4, 8], unit: "",
        description: "Neighbourhood: 4 (edges) or 8 (edges and diagonals).",
    }),
    option({
        path: "thermal.boundary", kind: "enum", defaultValue: "closed", values: ["closed", "open"], unit: "",
        description: "Closed edges conserve mass; open edges let material fall off the field (continuing the edge slope).",
    }),
    option({
        path: "thermal.iterations", kind: "integer", defaultValue: 2, min: 1, max: 64, step: 1, unit: "steps/batch",
        description: "Relaxation steps per thermal batch.",
    }),

    option({
        path: "materials.enabled", kind: "boolean", defaultValue: false, unit: "",
        description:
            "Two materials: bedrock, and loose soil over it (a thickness per vertex; the surface is their sum). What an operator removes comes from the " +
            "soil first, and from the rock at 1 / hardness the rate; what it lays down is soil. Thermal sheds soil past materials.soilTalus and rock past " +
            "an angle that rises from the soil's (rock as soft as soil) toward thermal.talus with 1 - 1 / hardness, so hard beds stand as cliffs over " +
            "slopes of soft ones. The soil is created at the first cycle it runs (materials.initialSoil) and kept, unchanged, while it is off.",
    }),
    option({
        path: "materials.soilTalus", kind: "number", defaultValue: 0.6, min: 0, max: 64, step: 0.01, unit: "slope",
        description:
            "Angle of repose of loose soil as a slope (rise over run; talusFromAngle converts degrees), never above thermal.talus (the rock's): soil on " +
            "steeper ground slides, so it gathers on flats and in valleys.",
    }),
    option({
        path: "materials.hardness", kind: "number", defaultValue: 2, min: 1, max: 1000, step: 0.5, unit: "x soil",
        description:
            "How much harder the bedrock (outside the strata's hard beds) is than the soil: every operator takes it at 1 / hardness the rate it takes soil, " +
            "and it stands at a steeper angle, between the soil's and thermal.talus (quantised to 1/256; 1: rock as loose as soil).",
    }),
    option({
        path: "materials.strataThickness", kind: "number", defaultValue: 0, min: 0, max: 1024, step: 0.5, unit: "cells",
        description:
            "Strata: the rock in beds of this thickness (cells of height, x cell size in metres), each hard (materials.strataHardness) or not " +
            "(materials.hardness) by a hash of its index, so hard beds stand as cliffs and benches; 0 has no strata.",
    }),
    option({
        path: "materials.strataHardness", kind: "number", defaultValue: 10, min: 1, max: 1000, step: 0.5, unit: "x soil",
        description: "Hardness of a hard bed of the strata (quantised to 1/256).",
    }),
    option({
        path: "materials.strataShare", kind: "number", defaultValue: 0.5, min: 0, max: 1, step: 0.01, unit: "",
        description: "Fraction of the strata's beds that are hard (each bed chosen by a hash of materials.strataSeed and its index).",
    }),
    option({
        path: "materials.strataSeed", kind: "integer", defaultValue: 1, min: 0, max: 4294967295, step: 1, unit: "u32",
        description: "Seed of which strata beds are hard.",
    }),
    option({
        path: "materials.strataBase", kind: "number", defaultValue: 0, min: -8192, max: 8192, step: 0.5, unit: "cells",
        description: "Elevation of the first bed's base (cells of height), where the strata meet the rock at the field's origin (x = 0, z = 0 of the grid).",
    }),
    option({
        path: "materials.strataBeds", kind: "integer", defaultValue: 0, min: 0, max: 65535, step: 1, unit: "beds",
        description:
            "Beds from materials.strataBase up that are layered; the rock below and above them has materials.hardness. 0 layers all the rock (the beds " +
            "repeat up and down).",
    }),
    option({
        path: "materials.strataDip", kind: "number", defaultValue: 0, min: 0, max: 0.5, step: 0.01, unit: "slope",
        description: "Dip of the strata as a slope (rise over run): the beds fall by this much per cell toward materials.strataDipDirection.",
    }),
    option({
        path: "materials.strataDipDirection", kind: "number", defaultValue: 0, min: 0, max: 360, step: 1, unit: "degrees",
        description: "Direction the strata dip toward, in degrees from the grid's +x axis toward its +z (row) axis (quantised to 1/256 of a turn).",
    }),
    option({
        path: "materials.initialSoilSlope", kind: "number", defaultValue: 0, min: 0, max: 64, step: 0.01, unit: "slope",
        description:
            "Soil from slope: the starting soil (materials.initialSoil) is that thick on flat ground and thins linearly to none where a vertex's steepest " +
            "drop to a neighbour reaches this slope (rise over run), so it starts in valleys and on plateaus, not on cliffs. 0 gives every vertex the same " +
            "soil.",
    }),
    option({
        path: "materials.weathering", kind: "number", defaultValue: 0, min: 0, max: 1, step: 0.001, unit: "/step",
        description:
            "Soil production: each thermal step, rock weathers into soil by this share of the way from the soil's thickness to materials.soilDepth, at 1 / " +
            "the rock's hardness, without moving the surface. Bare rock weathers fastest, hard rock slowly; the soil then creeps down at " +
            "materials.soilTalus and gathers in hollows and valleys. 0: no weathering (the soil is only what operators lay down and materials.initialSoil).",
    }),
    option({
        path: "materials.soilDepth", kind: "number", defaultValue: 1, min: 0, max: 1024, step: 0.01, unit: "cells",
        description: "Soil thickness at which weathering stops (cells of height, x cell size in metres): the soil a slope keeps where nothing carries it away.",
    }),
    option({
        path: "materials.channelSoil", kind: "boolean", defaultValue: true, unit: "",
        description:
            "What slopes shed into a river channel (drainage area at least rivers.channelArea) lies on its bed as soil until the streams cut it away (soil " +
            "first, at the soil's rate), as hillslope debris joins a channel's sediment layer in SPACE (Shobe et al. 2017); off: it joins the river's load " +
            "at once, as without the materials (valley floors then stay bare).",
    }),
    option({
        path: "materials.hardnessMapScale", kind: "number", defaultValue: 10, min: 1, max: 1000, step: 0.5, unit: "x",
        description:
            "What the hardness map (setMask(\"hardness\"), values in [0, 1] or a texture's red channel) multiplies the rock's hardness by where it reads 1: " +
            "the factor is 1 + value x (this - 1), 1 where the map reads 0 or without a map (quantised to 1/256). The product with the bed's hardness stays " +
            "within 1..1000.",
    }),
    option({
        path: "materials.initialSoil", kind: "number", defaultValue: 0, min: 0, max: 1024, step: 0.01, unit: "cells",
        description: "Soil thickness every vertex starts with when the materials first run, in cells of height (x cell size in metres).",
    }),
];

/** Looks up a row of the table by its dotted path. */
export function findOptionSpec(path: string): OptionSpec | undefined {
    return OPTION_SPECS.find((spec) => spec.path === path);
}

/** Human-readable allowed range of an option, as error messages and docs print it. */
export function describeAllowedValues(spec: OptionSpec): string {
    switch (spec.kind) {
        case "boolean":
            return "true or false";
        case "enum":
            return (spec.values ?? []).map((value) => JSON.stringify(value)).join(" or ");
        case "integer":
            return `an integer in [${spec.min}, ${spec.max}]`;
        case "number":
            return `a number in [${spec.min}, ${spec.max}]`;
    }
}
