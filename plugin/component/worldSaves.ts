/**
 * Saving and restoring one ground of a world at a cycle boundary (`TerrainErosionWorld.saveGround`
 * and `restoreGrounds`), on the runner's queue so they see everything issued before them.
 */
import { createMaps } from "../core/erosionMaps.js";
import { noMasks, STATE_GRIDS, type ErosionStateData } from "../core/erosionState.js";
import type { ErosionRunner } from "./erosionRunner.js";
import type { FieldWindow } from "./groundField.js";
import { restoreWindow, saveWindow, type ErosionGroundSave } from "./groundSave.js";

/** Saves `window`'s part of the state at the current cycle boundary. */
export function saveGroundWindow(runner: ErosionRunner, window: FieldWindow): Promise<ErosionGroundSave> {
    return runner.queueLive("saveGround", async ({ backend, schedule, field }) => {
        if (!schedule.atCycleBoundary) {
            throw new RangeError(
                `saveGround: the world is in cycle ${schedule.cycle} (batch ${schedule.batch} of ${schedule.batchesPerCycle}); ` +
                    `grounds are saved at a cycle boundary. Call pause() and await runCycles(1) first (or await runCycles(n)).`
            );
        }
        const state = await backend.readState(schedule.cycle, 0);
        state.masks = schedule.masks;
        Object.assign(state, schedule.inputsOf());
        const maps = await backend.readMaps();
        return saveWindow(window.row, window.column, state, maps, field.rectOf(window), schedule.options, field.cellSize);
    });
}

/** Restores grounds from saves (see `TerrainErosionWorld.restoreGrounds`). */
export function restoreGroundSaves(runner: ErosionRunner, saves: readonly ErosionGroundSave[]): Promise<void> {
    return runner.queueLive("restoreGrounds", async (live) => {
        const { backend, schedule, field } = live;
        if (saves.length === 0) {
            return;
        }
        const cycle = saves[0].cycle;
        const targets = saves.map((save, i) => {
            const window = field.windows.find((candidate) => candidate.row === save.row && candidate.column === save.column);
            const state = save.snapshot.state;
            const at = `restoreGrounds: save ${i} (row ${save.row}, column ${save.column})`;
            if (!window) {
                throw new RangeError(
                    `${at} has no ground in this world, whose grid has ${Math.max(...field.windows.map((w) => w.row)) + 1} ` +
                        `rows of ${Math.max(...field.windows.map((w) => w.column)) + 1} grounds.`
                );
            }
            if (state.width !== window.binding.width || state.depth !== window.binding.depth) {
                throw new RangeError(
                    `${at} is ${state.width} x ${state.depth} vertices but the ground ` +
                        `"${window.binding.ground.name}" there is ${window.binding.width} x ${window.binding.depth}.`
                );
            }
            if (Math.abs(save.snapshot.cellSize - field.cellSize) > 1e-9 * field.cellSize) {
                throw new RangeError(
                    `${at} was taken with cells ${save.snapshot.cellSize} units apart, but this ` +
                        `world's are ${field.cellSize}; its heights would restore at another scale.`
                );
            }
            if (save.cycle !== cycle) {
                throw new RangeError(`${at} is of cycle ${save.cycle} but save 0 is of cycle ${cycle}; restore saves of one cycle boundary together.`);
            }
            if (saves.findIndex((other) => other.row === save.row && other.column === save.column) !== i) {
                throw new RangeError(`${at} repeats a ground already restored by an earlier save.`);
            }
            return window;
        });
        const everyGround = targets.length === field.windows.length;
        if (!everyGround && !(schedule.atCycleBoundary && schedule.cycle === cycle)) {
            throw new RangeError(
                `restoreGrounds: the saves are of cycle ${cycle} but the world is at cycle ${schedule.cycle}, batch ${schedule.batch}. Restore saves of ` +
                    `every ground together (the world then moves to their cycle), or bring the world to that cycle boundary first.`
            );
        }
        let state: ErosionStateData;
        let maps;
        if (everyGround) {
            // Every vertex comes from a save; the world's own part (counters, events) from the first.
            const world = saves[0].snapshot.state;
            state = {
                width: field.width,
                depth: field.depth,
                cycle,
                batch: 0,
                masks: noMasks(),
                water: null,
                counters: world.counters.slice(),
                events: world.events,
                sources: world.sources,
                edits: world.edits,
            } as ErosionStateData;
            for (const name of STATE_GRIDS) {
                state[name] = new Int32Array(field.width * field.depth);
            }
            maps = createMaps(field.width * field.depth);
        } else {
            state = await backend.readState(schedule.cycle, 0);
            state.masks = schedule.masks;
            Object.assign(state, schedule.inputsOf());
            maps = await backend.readMaps();
        }
        saves.forEach((save, i) => restoreWindow(save, state, maps, field.rectOf(targets[i])));
        await runner.applyState(live, state, everyGround ? saves[0].snapshot.options : schedule.latestOptions, maps);
    });
}
