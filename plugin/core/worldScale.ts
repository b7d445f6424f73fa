/**
 * Physical units: how the grid's cell size enters the simulation.
 *
 * Every option is dimensionless or counted in cells (slopes are rise over run), and the state
 * counts heights in 1/65536 of the cell size, so a terrain scaled uniformly in x, y and z runs on
 * the same integers and erodes the same way: the cell size is used only to convert heights in and
 * out (`heightsToFixed`, `fixedToHeights`).
 *
 * The one world-unit option, `featureSize`, is for users who want the look to hold when they change
 * the ground's subdivisions: it sets how many metres one cell of the cell-counted options stands for.
 * With it, a ground of cell size c reads every length counted in cells (brush radius, droplet path,
 * thermal and river reach) in units of `featureSize` metres, scaled by k = featureSize / c, and runs
 * the extra iterations a finer grid needs to do the same physical work in one cycle
 * (docs/simulation.md, "Units").
 */
import { cloneOptions, type SimulationOptions } from "./options.js";

/** The grid a simulation runs on. */
export interface GridSize {
    /** Vertices per row (x). */
    readonly width: number;
    /** Rows (z in Babylon, y here). */
    readonly depth: number;
    /** Distance between neighbouring vertices, in the heights' unit. Default 1. */
    readonly cellSize?: number;
    /** Metres one unit of the heights stands for (a ground's world scale). Default 1. */
    readonly worldScale?: number;
}

/** Smallest and largest cell size the simulation accepts, in the heights' unit. */
export const CELL_SIZE_MIN = 2 ** -10;
export const CELL_SIZE_MAX = 2 ** 17;

/** Largest brush radius and droplet path the feature scale may stretch the options to, in cells. */
export const SCALED_BRUSH_RADIUS_MAX = 16;
export const SCALED_MAX_STEPS_MAX = 2048;
/** Largest thermal iterations and river propagation steps per batch the feature scale may ask for. */
export const SCALED_ITERATIONS_MAX = 1024;

/** Throws a `RangeError` naming `name` unless `cellSize` is a finite number in the accepted range. */
export function validateCellSize(cellSize: number, name = "cellSize"): void {
    if (typeof cellSize !== "number" || !Number.isFinite(cellSize) || cellSize < CELL_SIZE_MIN || cellSize > CELL_SIZE_MAX) {
        throw new RangeError(
            `${name} is ${String(cellSize)}: it must be the distance between neighbouring ` +
                `vertices, a number in [${CELL_SIZE_MIN}, ${CELL_SIZE_MAX}] (the heights' unit).`
        );
    }
}

/** Throws a `RangeError` naming `name` unless `worldScale` is a positive finite number. */
export function validateWorldScale(worldScale: number, name = "worldScale"): void {
    if (typeof worldScale !== "number" || !Number.isFinite(worldScale) || worldScale <= 0) {
        throw new RangeError(`${name} is ${String(worldScale)}: it must be a positive number of metres per unit.`);
    }
}

/** The cell size of a grid (1 when unset). */
export function cellSizeOf(grid: GridSize): number {
    return grid.cellSize ?? 1;
}

/** k = featureSize / (cell size in metres), or 1 when `featureSize` is 0 (lengths in cells). */
export function featureScale(options: Readonly<SimulationOptions>, grid: GridSize): number {
    if (options.featureSize === 0) {
        return 1;
    }
    return options.featureSize / (cellSizeOf(grid) * (grid.worldScale ?? 1));
}

function scaled(value: number, factor: number, low: number, high: number): number {
    return Math.min(high, Math.max(low, Math.round(value * factor)));
}

/**
 * The options a batch runs with on `grid`: `options` itself without `featureSize`; with it, every
 * length counted in cells scaled by k (brush radius and droplet path), and the relaxation steps a
 * batch runs scaled by k squared (thermal: a diffusion, whose time grows with the square of the
 * distance) and by k (the rivers' drainage-area propagation: a distance).
 */
export function cellScaledOptions<T extends SimulationOptions>(options: Readonly<T>, grid: GridSize): Readonly<T> {
    const k = featureScale(options, grid);
    if (k === 1) {
        return options;
    }
    const result = cloneOptions(options);
    result.hydraulic.brushRadius = scaled(options.hydraulic.brushRadius, k, 0, SCALED_BRUSH_RADIUS_MAX);
    result.hydraulic.maxSteps = scaled(options.hydraulic.maxSteps, k, 1, SCALED_MAX_STEPS_MAX);
    result.thermal.iterations = scaled(options.thermal.iterations, k * k, 1, SCALED_ITERATIONS_MAX);
    result.rivers.stepsPerBatch = scaled(options.rivers.stepsPerBatch, k, 1, SCALED_ITERATIONS_MAX);
    return result;
}
