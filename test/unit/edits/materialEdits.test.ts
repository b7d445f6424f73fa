/**
 * Edits that place a material (CPU reference; the GPU's equal them bit for bit:
 * test/browser/groundEdits.test.ts): a pile or a flatten lays rock of a given hardness or loose
 * soil. A stone levee across a valley holds its lake while the shallow water overtops it for 100
 * cycles; a sand bank across the same valley breaches. The rock keeps its hardness through the
 * hardness map's rewrites and a restore; with the materials off an edit is what it was.
 */
import { CpuErosionSimulation, ErosionSnapshot, resolveOptions, type ErosionOptionsInput, type GroundEditRequest } from "../../../plugin/index.js";
import { parseInputLog, parsePlayerInput, serializeInputLog } from "../../../plugin/lockstep.js";
import { noMasks } from "../../../plugin/advanced.js";

const UNIT = 65536;
const SIZE = 33;
/** The dam's row: the valley falls toward the last row (y), its floor along column 16. */
const ROW = 18;
const WATER_ALONE: ErosionOptionsInput = { patchSize: 64, hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false } };

function valley(options: ErosionOptionsInput): CpuErosionSimulation {
    const heights = Int32Array.from({ length: SIZE * SIZE }, (_, i) => Math.round((6 + Math.abs((i % SIZE) - 16) * 0.5 + (SIZE - 1 - Math.floor(i / SIZE)) * 0.1) * UNIT));
    return new CpuErosionSimulation(SIZE, SIZE, heights, resolveOptions(options));
}

/** The lowest height of the dam's row (its crest), cells. */
function crestOf(sim: CpuErosionSimulation): number {
    let crest = Infinity;
    for (let x = 0; x < SIZE; x++) crest = Math.min(crest, sim.state.heights[ROW * SIZE + x]);
    return crest / UNIT;
}

/** The water's surface 8 cells behind the dam, on the valley's floor, cells. */
function lakeOf(sim: CpuErosionSimulation): number {
    const i = 10 * SIZE + 16;
    return (sim.state.heights[i] + sim.state.water!.waterDepth[i]) / UNIT;
}

/**
 * A dam 1.5 cells high piled across the valley (of `rock`, or loose soil), a spring above it, run
 * until the water runs over it, then 100 cycles: the crest and the lake before and after.
 */
function dam(rock: number | undefined) {
    const sim = valley({ ...WATER_ALONE, materials: { enabled: true }, water: { enabled: true, rain: 0 } });
    sim.edit({ kind: "pile", height: 1.5 * UNIT, ...(rock === undefined ? {} : { rock }) }, [{ x: 0, y: ROW }, { x: SIZE - 1, y: ROW }], 2.5);
    sim.runBatch();
    sim.addWaterSource(16, 3, 1.5, 0.2);
    let overtopped = -1;
    for (let cycle = 0; cycle < 100 && overtopped < 0; cycle++) {
        sim.runCycles(1);
        if (sim.state.water!.waterDepth[(ROW + 3) * SIZE + 16] > UNIT / 100) overtopped = cycle;
    }
    const before = { crest: crestOf(sim), lake: lakeOf(sim) };
    let lowestLake = before.lake;
    for (let cycle = 0; cycle < 100; cycle++) {
        sim.runCycles(1);
        lowestLake = Math.min(lowestLake, lakeOf(sim));
    }
    return { sim, overtopped, before, after: { crest: crestOf(sim), lake: lakeOf(sim) }, lowestLake };
}

describe("edits that place a material", () => {
    it("a stone levee holds its lake while the water overtops it for 100 cycles; a sand bank across the same valley breaches", () => {
        const levee = dam(50);
        const bank = dam(undefined);
        const figures = (name: string, run: ReturnType<typeof dam>) =>
            `${name}: overtopped after ${run.overtopped} cycles; crest ${run.before.crest.toFixed(3)} -> ${run.after.crest.toFixed(3)}, lake ${run.before.lake.toFixed(3)} -> ${run.after.lake.toFixed(3)} (lowest ${run.lowestLake.toFixed(3)}) cells`;
        console.log(`${figures("stone levee (hardness 50)", levee)}\n${figures("sand bank", bank)}`);
        expect(levee.overtopped).toBeGreaterThanOrEqual(0);
        expect(bank.overtopped).toBeGreaterThanOrEqual(0);
        // The levee: its crest lowered by under 0.05 cells, the lake kept within 0.1 cells of its level.
        expect(levee.before.crest - levee.after.crest).toBeLessThan(0.05);
        expect(Math.abs(levee.after.lake - levee.before.lake)).toBeLessThan(0.1);
        expect(levee.before.lake - levee.lowestLake).toBeLessThan(0.1);
        // The bank: cut down by more than half a cell (of its 1.5), and the lake behind it drained by more than a quarter.
        expect(bank.before.crest - bank.after.crest).toBeGreaterThan(0.5);
        expect(bank.before.lake - bank.after.lake).toBeGreaterThan(0.25);
    });

    it("lays the rock under the soil and marks its hardness; a pile of soil adds to the soil; a flatten fills with rock and cuts the soil first", () => {
        // Thermal on (so batches run the materials) but at angles nothing here reaches.
        const sim = valley({ ...WATER_ALONE, thermal: { enabled: true, talus: 8 }, materials: { enabled: true, initialSoil: 0.25, soilTalus: 8 } });
        sim.runBatch(); // the materials are made: a quarter cell of soil everywhere
        const soilBefore = sim.state.materials!.soil.slice();
        sim.edit({ kind: "pile", height: UNIT, rock: 12 }, [{ x: 8, y: 8 }], 3);
        sim.edit({ kind: "pile", height: UNIT }, [{ x: 24, y: 8 }], 3);
        sim.edit({ kind: "flatten", target: 8 * UNIT, edge: 0, rock: 3 }, [{ x: 16, y: 24 }], 4);
        sim.runBatch();
        const { soil, hardness } = sim.state.materials!;
        const at = (x: number, y: number) => y * SIZE + x;
        // The rock pile: the soil as it was, the hardness 12 x 256 (negated: placed rock).
        expect(soil[at(8, 8)]).toBe(soilBefore[at(8, 8)]);
        expect(hardness[at(8, 8)]).toBe(-12 * 256);
        // The soil pile: a cell more soil at its centre, the rock's hardness factor untouched.
        expect(soil[at(24, 8)] - soilBefore[at(24, 8)]).toBe(UNIT);
        expect(hardness[at(24, 8)]).toBe(256);
        // The flatten to 8 cells: filled (with rock) where the ground was lower, cut (soil first) where higher.
        const start = valley(WATER_ALONE).state.heights;
        let filled = 0;
        let cut = 0;
        for (let y = 21; y <= 27; y++) {
            for (let x = 13; x <= 19; x++) {
                const i = at(x, y);
                if (sim.state.heights[i] > start[i]) {
                    filled++;
                    expect(hardness[i]).toBe(-3 * 256);
                    expect(soil[i]).toBe(soilBefore[i]);
                } else if (sim.state.heights[i] < start[i]) {
                    cut++;
                    expect(hardness[i]).toBe(256);
                    expect(soil[i]).toBe(Math.max(0, soilBefore[i] - (start[i] - sim.state.heights[i])));
                }
            }
        }
        expect(filled).toBeGreaterThan(5);
        expect(cut).toBeGreaterThan(5);
    });

    it("keeps the placed rock's hardness through the hardness map's rewrites and a restore", () => {
        const sim = valley({ ...WATER_ALONE, thermal: { enabled: true }, materials: { enabled: true, hardnessMapScale: 4 } });
        sim.edit({ kind: "pile", height: UNIT, rock: 20 }, [{ x: 16, y: 16 }], 3);
        sim.runCycles(1);
        const saved = sim.snapshot();
        const masks = noMasks();
        masks.hardness = new Int32Array(SIZE * SIZE).fill(UNIT);
        sim.setMasks({ ...sim.schedule.latestMasks, hardness: masks.hardness });
        sim.runCycles(1);
        const hardness = sim.state.materials!.hardness;
        expect(hardness[16 * SIZE + 16]).toBe(-20 * 256); // the rock's own
        expect(hardness[4 * SIZE + 4]).toBe(4 * 256); // the map's elsewhere
        sim.restore(saved);
        sim.runCycles(1);
        expect(sim.state.materials!.hardness[16 * SIZE + 16]).toBe(-20 * 256);
        expect(sim.state.materials!.hardness[4 * SIZE + 4]).toBe(256);
    });

    it("carries a pending rock edit through a snapshot's bytes: the restored run gives the same terrain", () => {
        const sim = valley({ ...WATER_ALONE, thermal: { enabled: true }, materials: { enabled: true } });
        sim.runBatch();
        sim.edit({ kind: "pile", height: UNIT, rock: 7.5 }, [{ x: 10, y: 10 }, { x: 20, y: 14 }], 2, { cycle: 1, batch: 2 });
        const bytes = sim.snapshot().toArrayBuffer();
        sim.runCycles(2);
        const restored = CpuErosionSimulation.fromSnapshot(ErosionSnapshot.fromArrayBuffer(bytes));
        restored.runCycles(2);
        expect(restored.fingerprint()).toBe(sim.fingerprint());
        expect(restored.state.materials!.hardness[12 * SIZE + 15]).toBe(-Math.round(7.5 * 256));
    });

    it("with the materials off, a pile of rock raises the ground as a pile of soil does; an edit of soil records no rock", () => {
        const off = (request: GroundEditRequest) => {
            const sim = valley({ ...WATER_ALONE, thermal: { enabled: true } });
            const edit = sim.edit(request, [{ x: 4, y: 16 }, { x: 28, y: 16 }], 2.5);
            sim.runCycles(2);
            return { heights: Array.from(sim.state.heights), edit };
        };
        const rock = off({ kind: "pile", height: UNIT, rock: 30 });
        const soil = off({ kind: "pile", height: UNIT });
        expect(rock.heights).toEqual(soil.heights);
        expect(rock.edit.rock).toBe(30 * 256);
        expect("rock" in soil.edit).toBe(false);
        expect(Object.keys(rock.edit)).toEqual(["kind", "mode", "rect", "amounts", "target", "sediment", "rock", "cycle", "batch", "id"]);
    });

    it("refuses rock outside [1, 1000], on a dig or a crater, and in the log and a player's request where it does not belong", () => {
        const sim = valley(WATER_ALONE);
        expect(() => sim.edit({ kind: "pile", height: UNIT, rock: 0.5 }, [{ x: 8, y: 8 }], 2)).toThrow(/pile: rock is 0.5: it must be a hardness in \[1, 1000\]/);
        expect(() => sim.edit({ kind: "flatten", target: UNIT, rock: 2000 }, [{ x: 8, y: 8 }], 2)).toThrow(/flatten: rock is 2000/);
        expect(() => parsePlayerInput(JSON.stringify({ kind: "edit", edit: { kind: "dig", depth: UNIT, rock: 5 }, points: [{ x: 4, y: 4 }], radius: 2 }))).toThrow(/unknown field "rock"/);
        expect(parsePlayerInput(JSON.stringify({ kind: "edit", edit: { kind: "pile", height: UNIT, rock: 5 }, points: [{ x: 4, y: 4 }], radius: 2 }))).toMatchObject({ edit: { kind: "pile", rock: 5 } });
        sim.edit({ kind: "pile", height: UNIT, rock: 5 }, [{ x: 8, y: 8 }], 2);
        const text = serializeInputLog(sim.log.entries);
        const field = { width: SIZE, depth: SIZE };
        expect(parseInputLog(text, field)).toHaveLength(sim.log.entries.length);
        const withRock = (edit: object) => text.replace(/"sediment":false,"rock":1280/, `"sediment":false,${JSON.stringify(edit).slice(1, -1)}`);
        expect(() => parseInputLog(withRock({ rock: 100 }), field)).toThrow(/edit\.rock is 100: it must be a whole number in \[256, 256000\]/);
        expect(() => parseInputLog(withRock({ rock: 1280.5 }), field)).toThrow(/edit\.rock/);
        const digging = valley(WATER_ALONE);
        digging.edit({ kind: "dig", depth: UNIT }, [{ x: 8, y: 8 }], 2);
        const dig = serializeInputLog(digging.log.entries).replace(/"sediment":false/, '"sediment":false,"rock":1280');
        expect(() => parseInputLog(dig, field)).toThrow(/edit\.rock is 1280 for a dig: only a pile or a flatten places rock/);
    });
});
