/** Compares two simulation states over everything they hold and describes the first difference. */
import { MATERIAL_GRIDS, STATE_GRIDS, WATER_CARRIED_GRIDS, type ErosionStateData } from "../../plugin/advanced.js";

/** Null when the states are identical, else a sentence naming the first differing cell or field. */
export function firstDifference(actual: ErosionStateData, expected: ErosionStateData): string | null {
    if (actual.width !== expected.width || actual.depth !== expected.depth) {
        return `grid ${actual.width} x ${actual.depth} != ${expected.width} x ${expected.depth}`;
    }
    if (actual.cycle !== expected.cycle || actual.batch !== expected.batch) {
        return `position cycle ${actual.cycle} batch ${actual.batch} != cycle ${expected.cycle} batch ${expected.batch}`;
    }
    for (const field of STATE_GRIDS) {
        const a = actual[field];
        const e = expected[field];
        for (let i = 0; i < e.length; i++) {
            if (a[i] !== e[i]) {
                return `${field} differ first at cell ${i} (x ${i % actual.width}, y ${Math.floor(i / actual.width)}): ${a[i]} != ${e[i]}`;
            }
        }
    }
    if (Boolean(actual.water) !== Boolean(expected.water)) {
        return `water ${actual.water ? "present" : "absent"} != ${expected.water ? "present" : "absent"}`;
    }
    for (const field of actual.water && expected.water ? WATER_CARRIED_GRIDS : []) {
        const a = actual.water![field];
        const e = expected.water![field];
        for (let i = 0; i < e.length; i++) {
            if (a[i] !== e[i]) {
                return `water ${field} differ first at cell ${i} (x ${i % actual.width}, y ${Math.floor(i / actual.width)}): ${a[i]} != ${e[i]}`;
            }
        }
    }
    if (Boolean(actual.materials) !== Boolean(expected.materials)) {
        return `materials ${actual.materials ? "present" : "absent"} != ${expected.materials ? "present" : "absent"}`;
    }
    for (const field of actual.materials && expected.materials ? MATERIAL_GRIDS : []) {
        const a = actual.materials![field];
        const e = expected.materials![field];
        for (let i = 0; i < e.length; i++) {
            if (a[i] !== e[i]) {
                return `materials ${field} differ first at cell ${i} (x ${i % actual.width}, y ${Math.floor(i / actual.width)}): ${a[i]} != ${e[i]}`;
            }
        }
    }
    for (let i = 0; i < expected.counters.length; i++) {
        if (actual.counters[i] !== expected.counters[i]) {
            return `counter ${i}: ${actual.counters[i]} != ${expected.counters[i]}`;
        }
    }
    return null;
}
