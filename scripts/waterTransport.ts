/**
 * Why the shallow water carries its sediment conservatively rather than semi-Lagrangian (Mei et
 * al. 2007): both schemes move the same pulse of sediment down the same steady flow, and this prints
 * each one's mass error and how far the pulse spreads (diffusion) per cell it travels.
 *
 *   npx tsx scripts/waterTransport.ts
 *
 * The flow: a 96 x 24 valley falling 0.05 cells a cell toward -x (its sides rising 0.3 a cell), rain
 * on its upper half, run until steady (water alone, no erosion). The pulse: one unit-cell of sediment on the vertices of the
 * column at x = 70 across the valley floor (rows 6 to 17). The conservative scheme is the operator's own (`water_transport`: each pipe
 * carries its share of its source's sediment, in integers). The semi-Lagrangian one is Mei's:
 * each vertex takes the bilinear sample of the old sediment concentration at x - v (v the vertex's
 * velocity, the net flow over the depth, as `waterTexels` computes it), times its water, in doubles.
 */
import { CpuErosionSimulation, resolveOptions } from "../plugin/index.js";
import { noMasks, waterTexels } from "../plugin/advanced.js";

const WIDTH = 96;
const DEPTH = 24;
const PULSE_X = 70;
const STEPS = 200;
const ONE = 65536;

const heights = Int32Array.from({ length: WIDTH * DEPTH }, (_, i) => Math.round(((i % WIDTH) * 0.05 + Math.abs(Math.floor(i / WIDTH) - (DEPTH - 1) / 2) * 0.3) * ONE));
const simulation = new CpuErosionSimulation(WIDTH, DEPTH, heights, resolveOptions({ patchSize: 64, hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false }, water: { enabled: true, rain: 0.01, evaporation: 0, capacity: 0, dissolving: 0, deposition: 0, stepsPerCycle: 1, } }));
const masks = noMasks();
masks.rain = Int32Array.from({ length: WIDTH * DEPTH }, (_, i) => (i % WIDTH >= WIDTH / 2 ? ONE : 0));
simulation.setMasks(masks);
simulation.runCycles(600);

/** Sediment total, and the mean and standard deviation of its x along the flow. */
function moments(sediment: ArrayLike<number>): { total: number; mean: number; spread: number } {
    let total = 0;
    let first = 0;
    let second = 0;
    for (let i = 0; i < sediment.length; i++) {
        const x = i % WIDTH;
        total += sediment[i];
        first += sediment[i] * x;
        second += sediment[i] * x * x;
    }
    const mean = first / total;
    return { total, mean, spread: Math.sqrt(Math.max(0, second / total - mean * mean)) };
}

// Conservative: the operator itself, with the pulse put into its state.
const state = simulation.getState();
const water = state.water!;
water.waterSediment.fill(0);
for (let y = 6; y < DEPTH - 6; y++) water.waterSediment[y * WIDTH + PULSE_X] = ONE;
simulation.setState(state);
const start = moments(water.waterSediment);
simulation.runCycles(STEPS);
const conservative = moments(simulation.state.water!.waterSediment);
// What left over the open edges is not an error: it is counted (outflow).
const outflow = simulation.state.counters[0] - state.counters[0];

// Semi-Lagrangian, Mei's: on the same (steady) water and velocity field, in doubles.
const texels = waterTexels(state, 1, 0, DEPTH);
const depthAt = (i: number) => texels[i * 4];
let sediment = Float64Array.from(water.waterSediment, (value) => value / ONE);
for (let step = 0; step < STEPS; step++) {
    const concentration = sediment.map((value, i) => (depthAt(i) > 0 ? value / depthAt(i) : 0));
    const next = new Float64Array(sediment.length);
    for (let y = 0; y < DEPTH; y++) {
        for (let x = 0; x < WIDTH; x++) {
            const i = y * WIDTH + x;
            // Velocity along +x and +y (rows): the texel's z component runs toward -y.
            const sx = Math.min(WIDTH - 1, Math.max(0, x - texels[i * 4 + 1]));
            const sy = Math.min(DEPTH - 1, Math.max(0, y + texels[i * 4 + 2]));
            const x0 = Math.min(WIDTH - 2, Math.floor(sx));
            const y0 = Math.min(DEPTH - 2, Math.floor(sy));
            const fx = sx - x0;
            const fy = sy - y0;
            const at = (cx: number, cy: number) => concentration[cy * WIDTH + cx];
            const sampled = (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) + fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1));
            next[i] = sampled * depthAt(i);
        }
    }
    sediment = next;
}
const semiLagrangian = moments(sediment);
const startTotal = start.total / ONE;

const report = (name: string, found: { total: number; mean: number; spread: number }, scale: number) => {
    const travelled = start.mean - found.mean;
    console.log(`${name.padEnd(16)} mass error ${(((found.total / scale - startTotal) / startTotal) * 100).toFixed(3)}%, travelled ${travelled.toFixed(2)} cells, spread ${found.spread.toFixed(2)} cells (${(found.spread / Math.max(travelled, 1e-9)).toFixed(3)} a cell travelled)`);
};
console.log(`pulse of ${startTotal} cells of sediment at x = ${PULSE_X}, ${STEPS} steps of steady flow`);
report("conservative", { ...conservative, total: conservative.total + outflow }, ONE);
console.log(`  (of which ${((outflow / start.total) * 100).toFixed(3)}% left over the open edge at x = 0, counted as outflow)`);
report("semi-Lagrangian", semiLagrangian, 1);
