/**
 * The options' types: each group's (hydraulic, thermal, rivers, water, materials), the runtime
 * settings (`ErosionSettings`) and the simulation options (`SimulationOptions`), the whole
 * (`ErosionOptions`, both), and what a user passes (`ErosionOptionsInput`). Their units, ranges and
 * defaults are in `OPTION_SPECS` (`optionsTable.ts`); `options.ts` builds and checks the values.
 */
/** Where the erosion kernels run. */
export type ErosionBackendName = "auto" | "webgpu" | "cpu";

/** Droplet (particle) hydraulic erosion options. Units and ranges: `OPTION_SPECS`. */
export interface HydraulicOptions {
    /** Run droplet hydraulic erosion. Default `true`. */
    enabled: boolean;
    /** Droplets rained on one patch per batch, 1..1 048 576. Default 1024. */
    dropletsPerBatch: number;
    /** Longest walk of a droplet in steps (one cell each), 1..512. Default 64. */
    maxSteps: number;
    /** Share of its previous direction a droplet keeps each step, 0..0.99. Default 0.3. */
    inertia: number;
    /** Sediment capacity factor (dimensionless), 0..64. Default 4. */
    capacity: number;
    /** Smallest slope (rise over run) used for capacity, 0..16. Default 0.01. */
    minSlope: number;
    /** Solubility: fraction of the capacity deficit picked up per step, 0..1. Default 0.3. */
    erosion: number;
    /** Fraction of the capacity surplus laid down per step, 0..1. Default 0.3. */
    deposition: number;
    /** Fraction of its water a droplet loses per step, 0..0.5. Default 0.02. */
    evaporation: number;
    /** Speed gained per cell of fall, in (cells/step)^2, 0..64. Default 4. */
    gravity: number;
    /** Water a droplet starts with, 0.01..16. Default 1. */
    initialWater: number;
    /** Speed a droplet starts with, in cells per step, 0..16. Default 1. */
    initialSpeed: number;
    /** A walk ends when the droplet's water falls below this, 0..1. Default 0.01. */
    minWater: number;
    /** Erosion brush radius in cells, 0..8 (0 = the four bilinear cells). Default 3. */
    brushRadius: number;
    /** What a droplet still holds when its walk ends: `"deposit"` it there (default) or `"carry"` it away. */
    endOfWalk: "deposit" | "carry";
}

/** Thermal (talus) erosion options. Units and ranges: `OPTION_SPECS`. */
export interface ThermalOptions {
    /** Run thermal erosion. Default `true`. */
    enabled: boolean;
    /** Angle of repose as a slope (rise over run), 0..64. Default 1 (45 degrees). See `talusFromAngle`. */
    talus: number;
    /** Fraction of the stable maximum moved per step, 0..1. Default 0.5. */
    rate: number;
    /** Neighbourhood, 4 or 8. Default 8. */
    neighbours: 4 | 8;
    /** `"closed"` edges conserve mass (default); `"open"` edges let material fall off. */
    boundary: "closed" | "open";
    /** Relaxation steps per thermal batch, 1..64. Default 2. */
    iterations: number;
}

/** Stream-power river erosion options. Units and ranges: `OPTION_SPECS`. */
export interface RiverOptions {
    /** Run river erosion. Default `true`. */
    enabled: boolean;
    /** Erodibility K per cycle: F = erosion x sqrt(drainage area in cells) / run, 0..10. Default 0.03. */
    erosion: number;
    /** Transport capacity factor: capacity x A x slope, in cells of height a cycle (A in cells), 0..64. Default 1. */
    capacity: number;
    /** Fraction of the load beyond capacity laid down a cycle, 0..1. Default 0.5. */
    deposition: number;
    /** Uplift in cells of height per cycle (times the uplift map) of every vertex but the field's edge, 0..1. Default 0. */
    uplift: number;
    /**
     * Drainage area in cells from which a vertex is a river channel, 0..2^30: what slopes shed
     * into it (thermal) joins the river's load instead of raising the bed; 0 turns this off.
     * Default 20.
     */
    channelArea: number;
    /** Drainage-area propagation steps per batch, 1..256. Default 32. */
    stepsPerBatch: number;
}

/** Shallow-water erosion options (Mei et al. 2007's virtual pipes). Units and ranges: `OPTION_SPECS`. */
export interface WaterOptions {
    /** Run shallow-water erosion. Default `false`. */
    enabled: boolean;
    /** Water steps per cycle, 1..256. Default 16. */
    stepsPerCycle: number;
    /** Rain per water step, in cells of depth, 0..1. Default 0.0005. */
    rain: number;
    /** Fraction of the water that evaporates per step, 0..0.5. Default 0.005. */
    evaporation: number;
    /** Fraction of the pipes' flow lost per step, 0..1. Default 0.05. */
    friction: number;
    /** Sediment capacity factor (capacity = factor x slope x discharge), 0..64. Default 2. */
    capacity: number;
    /** Smallest slope the capacity uses, 0..1. Default 0.01. */
    minSlope: number;
    /** Fraction of the capacity deficit picked up per step, 0..1. Default 0.1. */
    dissolving: number;
    /** Fraction of the surplus laid down per step, 0..1. Default 0.1. */
    deposition: number;
    /** `"open"` edges let water flow off the field (default); `"closed"` keep it. */
    boundary: "open" | "closed";
}

/** Two materials, bedrock and loose soil. Units and ranges: `OPTION_SPECS`. */
export interface MaterialOptions {
    /** Track soil over the bedrock (the soil first, then the rock, at 1 / hardness the rate). Default `false`. */
    enabled: boolean;
    /** Soil's angle of repose as a slope, 0..64, never above `thermal.talus`. Default 0.6. */
    soilTalus: number;
    /** The rock's hardness relative to the soil, 1..1000 (quantised to 1/256). Default 2. */
    hardness: number;
    /** Soil thickness every vertex starts with, in cells of height, 0..1024. Default 0. */
    initialSoil: number;
    /** Slope at which the starting soil thins to none (thick on flats), 0..64; 0: the same everywhere. Default 0. */
    initialSoilSlope: number;
    /** Soil production: the share of the way to `soilDepth` that rock weathers into soil each thermal step, 0..1 (at 1 / hardness); 0: none. Default 0. */
    weathering: number;
    /** Soil thickness, in cells of height, at which weathering stops, 0..1024. Default 1. */
    soilDepth: number;
    /** What slopes shed into a river channel (`rivers.channelArea`) lies there as soil until the streams take it, not in their load at once. Default `true`. */
    channelSoil: boolean;
    /** Hardness factor where the hardness map (`setMask("hardness")`) reads 1, 1..1000. Default 10. */
    hardnessMapScale: number;
    /** Thickness of a bed of the strata, in cells of height, 0..1024; 0 has no strata. Default 0. */
    strataThickness: number;
    /** Hardness of a hard bed, 1..1000. Default 10. */
    strataHardness: number;
    /** Fraction of the beds that are hard, 0..1. Default 0.5. */
    strataShare: number;
    /** Seed of which beds are hard, a u32. Default 1. */
    strataSeed: number;
    /** Elevation of the first bed's base at the grid's origin, in cells, -8192..8192. Default 0. */
    strataBase: number;
    /** Beds from the base up that are layered, 0..65535; 0 layers all the rock. Default 0. */
    strataBeds: number;
    /** The beds' dip as a slope, 0..0.5. Default 0. */
    strataDip: number;
    /** Direction the beds dip toward, degrees from the grid's +x toward +z, 0..360. Default 0. */
    strataDipDirection: number;
}

/**
 * The runtime settings: where and when erosion runs, never what it makes (`RUNTIME_SETTINGS` names
 * them). A behavior and its runner hold them; the schedule, snapshots, checkpoints, saves and the
 * input log never do, so restoring a snapshot keeps the settings in force.
 */
export interface ErosionSettings {
    /** Where kernels run. Default `"auto"`. */
    backend: ErosionBackendName;
    /**
     * Workers the CPU backend runs on, 0..64 (its own worker and helpers; the terrain is the same for
     * any count). Default 0: max(1, logical cores - 1).
     */
    cpuWorkers: number;
    /** Start eroding when attached. Default `true`. */
    autoStart: boolean;
    /** Erosion time budget per frame in milliseconds, 0.05..1000. Default 2. */
    frameBudgetMs: number;
    /** Stop after this many cycles since attach or reset; 0 = no limit. Default 0. */
    maxCycles: number;
    /**
     * Memory for the checkpoints undo rewinds to, in MiB, 0..65536: the newest cycle-boundary states
     * that fit are kept (an undo replays from the newest before the input it takes back; from the
     * start when none is). Default 64.
     */
    undoMemoryMB: number;
    /**
     * How long any one wait on the device or a worker may take before erosion counts it as stalled,
     * in milliseconds, 50..3600000 (then it reports the stall and rebuilds from the last checkpoint).
     * Default 300000.
     */
    stallTimeoutMs: number;
    /** Stalls in a row erosion recovers from before it stops, 0..100. Default 3. */
    stallRetries: number;
}

/**
 * The simulation options: every option that shapes the terrain. What the schedule runs a cycle with,
 * what snapshots, checkpoints and saves carry and an `"options"` input-log entry records.
 */
export interface SimulationOptions {
    /** Seed of the droplet placement hash, a u32. Default 1. */
    seed: number;
    /** Side of the square patches in cells, 8..1024. Default 64. */
    patchSize: number;
    /**
     * World-unit mode, in metres, 0..100000: one cell of the cell-counted options (brush radius, droplet
     * path, relaxation steps) stands for this many metres, so the look holds when the ground's
     * subdivisions change. Default 0: those options count the ground's own cells.
     */
    featureSize: number;
    /** The terrain tiles seamlessly (its last row and column repeat the first); the river operator wraps across the seam. Default `false`. */
    tileable: boolean;
    /** Droplet hydraulic erosion. */
    hydraulic: HydraulicOptions;
    /** Thermal erosion. */
    thermal: ThermalOptions;
    /** Stream-power river erosion. */
    rivers: RiverOptions;
    /** Shallow-water erosion. */
    water: WaterOptions;
    /** Bedrock and loose soil. */
    materials: MaterialOptions;
}

/** Every erosion option, resolved (no field missing): the runtime settings and the simulation options, as `resolveOptions` gives them. */
export interface ErosionOptions extends ErosionSettings, SimulationOptions {}

/** Options as a user passes them: every field optional, groups merged over the defaults. */
export type ErosionOptionsInput = Partial<Omit<ErosionOptions, "hydraulic" | "thermal" | "rivers" | "water" | "materials">> & {
    hydraulic?: Partial<HydraulicOptions>;
    thermal?: Partial<ThermalOptions>;
    rivers?: Partial<RiverOptions>;
    water?: Partial<WaterOptions>;
    materials?: Partial<MaterialOptions>;
};
