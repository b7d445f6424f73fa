/**
 * Water sources (`addWaterSource`): springs, or a storm over one valley during gameplay. A source
 * adds a volume of water each water step, spread evenly over the vertices of a disc. Sources are
 * state: the sources in force (and those waiting for the next cycle boundary) are in the
 * fingerprint and in snapshots, so every client that adds the same source at the same cycle stays
 * identical.
 *
 * The disc is rasterised in integers: the vertices (x, y) with (x - column)^2 + (y - row)^2 <=
 * radius^2, the centre rounded to the nearest vertex and the radius to whole cells, clipped to the
 * field. Each of its `count` vertices gets floor(rate / count) units a step (the remainder is not
 * added, so what the counters report is exactly what was added).
 */
import { CELL_UNITS, type GridUnits } from "./gridUnits.js";
import { FIXED_ONE } from "./fixedPoint.js";

/** Most sources in force at once. */
export const MAX_WATER_SOURCES = 256;

/** Largest rate one source may add, in Q16 cubic cells a step (2^21 units: 32 cells of depth on one vertex). */
export const SOURCE_RATE_LIMIT = 2 ** 21;

/** Largest source radius, in cells. */
export const SOURCE_RADIUS_LIMIT = 4096;

/** One water source, in grid units. */
export interface WaterSource {
    /** Handle id, unique within the simulation (in the order sources were added). */
    readonly id: number;
    /** Centre vertex: column and row. */
    readonly column: number;
    readonly row: number;
    /** Radius in whole cells (0: the centre vertex alone). */
    readonly radius: number;
    /** Water added a step, Q16 cubic cells (cells of depth times cells of area). */
    readonly rate: number;
}

/**
 * A source from grid coordinates: centre in cells (fractional allowed), radius in cells, rate in
 * cubic cells a step. Throws a `RangeError` naming the parameter and its range in `units` (the
 * behaviors': world units).
 */
export function createWaterSource(
    id: number, centreX: number, centreY: number, radius: number, rate: number, width: number, depth: number, units: GridUnits = CELL_UNITS
): WaterSource {
    const check = (name: string, value: number, min: number, max: number, unit: string, shown: (cells: number) => number) => {
        if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
            throw new RangeError(`addWaterSource: ${name} is ${shown(value)}: it must be a number in [${shown(min)}, ${shown(max)}] ${unit}.`);
        }
    };
    if (units === CELL_UNITS) {
        check("centre x", centreX, 0, width - 1, "cells (the position must lie on the field)", Number);
        check("centre z", centreY, 0, depth - 1, "cells (the position must lie on the field)", Number);
    } else if (!(centreX >= 0 && centreX <= width - 1 && centreY >= 0 && centreY <= depth - 1)) {
        throw new RangeError(
            `addWaterSource: the position ${units.position(centreX, centreY)} is off the ground (${units.extent(width, depth)}): it must lie on it.`
        );
    }
    check("radius", radius, 0, SOURCE_RADIUS_LIMIT, units.name, (cells) => units.length(cells));
    const cubic = units.length(1) ** 3;
    check(
        "rate", rate, 0, SOURCE_RATE_LIMIT / FIXED_ONE, `cubic ${units.name} per water step`,
        units === CELL_UNITS ? Number : (cubicCells) => Number((cubicCells * cubic).toPrecision(6))
    );
    return { id, column: Math.round(centreX), row: Math.round(centreY), radius: Math.round(radius), rate: Math.round(rate * FIXED_ONE) };
}

/**
 * `sources` with a new source added (id one past the highest), for the next cycle boundary. Throws a
 * `RangeError` past `MAX_WATER_SOURCES` or for a bad parameter. Centre and radius in cells, rate in
 * cubic cells a water step.
 */
export function withSourceAdded(
    sources: readonly WaterSource[], centreX: number, centreY: number, radius: number, rate: number, width: number, depth: number, units: GridUnits = CELL_UNITS
): { sources: WaterSource[]; id: number } {
    if (sources.length >= MAX_WATER_SOURCES) {
        throw new RangeError(
            `addWaterSource: ${sources.length} water sources are in force or pending, the most there can be (${MAX_WATER_SOURCES}); remove one first.`
        );
    }
    const id = sources.reduce((highest, source) => Math.max(highest, source.id), 0) + 1;
    return { sources: [...sources, createWaterSource(id, centreX, centreY, radius, rate, width, depth, units)], id };
}

/** The vertices of a source's disc inside the field. */
export function sourceVertexCount(source: WaterSource, width: number, depth: number): number {
    let count = 0;
    const { column, row, radius } = source;
    for (let y = Math.max(0, row - radius); y <= Math.min(depth - 1, row + radius); y++) {
        for (let x = Math.max(0, column - radius); x <= Math.min(width - 1, column + radius); x++) {
            if ((x - column) * (x - column) + (y - row) * (y - row) <= radius * radius) count++;
        }
    }
    return count;
}

/** `i32`s per packed source: column, row, radius^2, units per vertex a step. */
export const SOURCE_ENTRY_INTS = 4;

/**
 * The sources as the kernels read them: the count, then per source column, row, radius^2 and the
 * units each of its vertices gets a step. The depth pass adds, at each vertex, the amount of every
 * source whose disc holds it.
 */
export function packWaterSources(sources: readonly WaterSource[], width: number, depth: number): Int32Array {
    const packed = new Int32Array(1 + sources.length * SOURCE_ENTRY_INTS);
    packed[0] = sources.length;
    sources.forEach((source, index) => {
        const count = sourceVertexCount(source, width, depth);
        const base = 1 + index * SOURCE_ENTRY_INTS;
        packed[base] = source.column;
        packed[base + 1] = source.row;
        packed[base + 2] = source.radius * source.radius;
        packed[base + 3] = count > 0 ? Math.floor(source.rate / count) : 0;
    });
    return packed;
}

/** Water the packed sources add at vertex (x, y) in one step. Mirrors `sourceInput` in `water_depth.wgsl`. */
export function sourceInputAt(packed: Int32Array, x: number, y: number): number {
    let total = 0;
    for (let k = 0, count = packed[0]; k < count; k++) {
        const base = 1 + k * SOURCE_ENTRY_INTS;
        const dx = x - packed[base];
        const dy = y - packed[base + 1];
        if (dx * dx + dy * dy <= packed[base + 2]) total += packed[base + 3];
    }
    return total;
}
