/**
 * What a GPU simulation reads back whole: the state (its grids, the water's, the materials', the
 * counters) and the erosion maps. The caller submits first.
 */
import { COUNTER_COUNT, COUNTER_WORDS } from "../core/counters.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import { STATE_GRIDS, type ErosionMasks, type ErosionStateData } from "../core/erosionState.js";
import { WATER_CARRIED_GRIDS, type WaterGrids } from "../core/waterModel.js";
import type { ComputeDevice } from "./computeDevice.js";
import type { GpuMaterials } from "./gpuMaterials.js";
import { COUNTER_BYTES, gridBytes, type SimulationBuffers } from "./simulationBuffers.js";

/** The whole state in `buffers`, with `masks` (those uploaded) and the caller's position (`cycle`, `batch`). */
export async function readGpuState(
    device: ComputeDevice, buffers: SimulationBuffers, materials: GpuMaterials, masks: ErosionMasks, cycle: number, batch: number
): Promise<ErosionStateData> {
    const { width, depth } = buffers;
    const bytes = gridBytes(width, depth);
    const waterGrids = buffers.hasWater ? WATER_CARRIED_GRIDS : [];
    const [counters, materialGrids, ...grids] = await Promise.all([
        device.readBuffer(buffers.bound("counters"), 0, COUNTER_BYTES),
        materials.read(),
        ...[...STATE_GRIDS, ...waterGrids].map((grid) => device.readBuffer(buffers.bound(grid), 0, bytes)),
    ]);
    // Each counter is two u32 words, low first.
    const words = new Uint32Array(counters);
    const counterValues = new Float64Array(COUNTER_COUNT);
    for (let i = 0; i < COUNTER_COUNT; i++) {
        counterValues[i] = words[COUNTER_WORDS * i] + words[COUNTER_WORDS * i + 1] * 2 ** 32;
    }
    const state = { width, depth, cycle, batch, masks, counters: counterValues } as ErosionStateData;
    STATE_GRIDS.forEach((grid, index) => (state[grid] = new Int32Array(grids[index])));
    if (buffers.hasWater) {
        const water = {} as WaterGrids;
        WATER_CARRIED_GRIDS.forEach((grid, index) => (water[grid] = new Int32Array(grids[STATE_GRIDS.length + index])));
        state.water = water;
    } else {
        state.water = null;
    }
    state.materials = materialGrids;
    return state;
}

/** The erosion maps in `buffers`. */
export async function readGpuMaps(device: ComputeDevice, buffers: SimulationBuffers): Promise<ErosionMaps> {
    const bytes = gridBytes(buffers.width, buffers.depth);
    const [water, wear, deposition] = await Promise.all(
        (["mapWater", "mapWear", "mapDeposition"] as const).map((map) => device.readBuffer(buffers.bound(map), 0, bytes))
    );
    return { water: new Uint32Array(water), wear: new Uint32Array(wear), deposition: new Uint32Array(deposition) };
}
