/**
 * A Node worker thread of `CpuWorkerPool`: runs its share of a batch on the shared heights (see
 * `splitBatch.ts` for why the split cannot change the result). Bundled on its own
 * (esbuild) and started by the pool.
 */
import { parentPort, workerData } from "node:worker_threads";
import { COUNTER_COUNT, erodeDroplets, thermalApply, thermalFlux } from "../../plugin/advanced.js";
import { thermalApplyBand, thermalFluxBand } from "./splitBatch.js";
import type { WorkerData, WorkerReply, WorkerRequest } from "./cpuWorkers.js";

const data = workerData as WorkerData;
const heights = new Int32Array(data.heights);
const delta = new Int32Array(data.delta);
const water = new Int32Array(data.water);
let flux = new Int32Array(data.flux);
// The pool's drainage area and suspended load (all zero unless the pool copied a state's in).
const channel = { drainageArea: new Int32Array(data.drainageArea), suspended: new Int32Array(data.suspended) };

parentPort!.on("message", (request: WorkerRequest) => {
    const counters = new Float64Array(COUNTER_COUNT);
    switch (request.type) {
        case "droplets":
            erodeDroplets(request.params, heights, delta, request.brush, counters, request.first, request.end, water);
            break;
        case "flux": {
            const band = thermalFluxBand(request.params, flux, request.y0, request.y1);
            thermalFlux(band.params, heights, band.flux);
            break;
        }
        case "apply":
            thermalApply(thermalApplyBand(request.params, request.y0, request.y1), heights, flux, counters, null, channel);
            break;
        case "flux-buffer":
            flux = new Int32Array(request.flux);
            break;
    }
    const reply: WorkerReply = { counters };
    parentPort!.postMessage(reply);
});
