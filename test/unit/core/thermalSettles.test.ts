/**
 * Repeated thermal (talus) erosion steps bring every slope to the talus threshold or below, across
 * patch seams, with 4 and 8 neighbours.
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions } from "../../../plugin/index.js";
import { generateCone } from "../../../plugin/terrain.js";
import { THERMAL_DX, THERMAL_DY } from "../../../plugin/internal.js";

describe.each([4, 8] as const)("thermal erosion with %i neighbours", (neighbours) => {
    it("settles a steep cone until no slope exceeds the talus threshold (to the integer step's resolution)", () => {
        const size = 41;
        // Thermal alone: the rivers (on by default) keep cutting channels steeper than the talus.
        const options = resolveOptions({ patchSize: 16, hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { neighbours, talus: 0.5, rate: 1, iterations: 16 } });
        const simulation = new CpuErosionSimulation(size, size, heightsToFixed(generateCone(size, size, 30, 16)), options);
        const talus = Math.round(0.5 * 65536);
        const talusDiagonal = Math.round(0.5 * Math.SQRT2 * 65536);
        // A step moves floor(excess * rate / (2 * neighbours)); below this excess it moves nothing.
        const residual = Math.ceil(65536 / Math.floor((1 / (2 * neighbours)) * 65536));
        const worstExcess = () => {
            const h = simulation.state.heights;
            let worst = -Infinity;
            for (let y = 0; y < size; y++) {
                for (let x = 0; x < size; x++) {
                    for (let k = 0; k < neighbours; k++) {
                        const nx = x + THERMAL_DX[k];
                        const ny = y + THERMAL_DY[k];
                        if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
                        worst = Math.max(worst, h[y * size + x] - h[ny * size + nx] - (k < 4 ? talus : talusDiagonal));
                    }
                }
            }
            return worst;
        };
        const before = worstExcess();
        expect(before).toBeGreaterThan(0.4 * 65536); // the cone starts far steeper than the talus
        // Settled within 500 cycles (checked every 25: no need to run on once it has).
        let cycles = 0;
        while (cycles < 500 && worstExcess() >= residual) {
            simulation.runCycles(25);
            cycles += 25;
        }
        expect(worstExcess()).toBeLessThan(residual);
        expect(cycles).toBeLessThanOrEqual(500);
    });
});
