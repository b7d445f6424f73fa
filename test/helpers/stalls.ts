/**
 * What the stall tests hold back: a compute device whose chosen readbacks never resolve, a CPU
 * backend channel that stops answering, and a GPU device on Dawn for Node (the `webgpu` package,
 * on SwiftShader: `VK_ICD_FILENAMES`, which the jest setup sets) for the GPU simulation under a
 * NullEngine.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Scene } from "@babylonjs/core/scene.js";
import { ForwardingComputeDevice, makeBackendsWith, type BackendMaker, type CpuChannel } from "../../plugin/internal.js";
import type { ComputeBuffer, ComputeDevice } from "../../plugin/advanced.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { TerrainErosion, type ErosionErrorEvent, type ErosionOptionsInput } from "../../plugin/index.js";
import { createGroundWithHeights, createNullScene, renderFrames } from "./nullScene.js";

/** A promise that never settles: what a device or worker that stopped answering gives. */
export function never<T>(): Promise<T> {
    return new Promise<T>(() => undefined);
}

/** Which readbacks a `HoldingComputeDevice` holds: the `index`-th of all of them so far (from 0), of `buffer`. */
export type ReadbackHold = (buffer: ComputeBuffer, index: number) => boolean;

/**
 * `inner`'s readbacks, each of those `hold` picks never resolving. Disposing it leaves `inner`
 * alone (its compiled kernels serve the next backend of the test).
 */
export class HoldingComputeDevice extends ForwardingComputeDevice {
    /** Readbacks asked for so far, and those held. */
    public readbacks = 0;
    public held = 0;

    constructor(
        inner: ComputeDevice,
        private readonly _hold: ReadbackHold
    ) {
        super(inner);
    }

    public override readBuffer(buffer: ComputeBuffer, byteOffset: number, byteLength: number): Promise<ArrayBuffer> {
        if (this._hold(buffer, this.readbacks++)) {
            this.held++;
            return never();
        }
        return super.readBuffer(buffer, byteOffset, byteLength);
    }

    public override dispose(): void {
        // The shared device outlives each backend made on it.
    }
}

/**
 * `inner` until `stopsAt(type, index)` says so for a request (`index`: requests so far, from 0):
 * from then on no request is answered, as a worker that died without a word.
 */
export function stoppingChannel(inner: CpuChannel, stopsAt: (type: string, index: number) => boolean): CpuChannel & { readonly stopped: boolean } {
    let requests = 0;
    let stopped = false;
    return {
        get stopped() {
            return stopped;
        },
        request(message, transfer, posted) {
            if (stopped || stopsAt(message.type, requests++)) {
                stopped = true;
                return never();
            }
            return inner.request(message, transfer, posted);
        },
        close: () => inner.close(),
    };
}

/** Dawn for Node as its native module exports it (its ES module entry cannot load under jest's CommonJS). */
interface Dawn {
    create(flags: string[]): GPU;
    globals: Record<string, unknown>;
}

/** A `GPUDevice` on Dawn for Node's first adapter (SwiftShader here), with Dawn's globals (`GPUBufferUsage`, ...) installed. */
export async function dawnDevice(): Promise<{ device: GPUDevice; gpu: GPU }> {
    const load = createRequire(__filename);
    const dawn = load(join(process.cwd(), "node_modules/webgpu/dist", `${process.platform}-${process.arch}`, "dawn.node")) as Dawn;
    Object.assign(globalThis, dawn.globals);
    const gpu = dawn.create([]);
    const adapter = await gpu.requestAdapter();
    if (!adapter) throw new Error(`Dawn for Node found no adapter (VK_ICD_FILENAMES is ${process.env.VK_ICD_FILENAMES ?? "unset"}).`);
    return { device: await adapter.requestDevice(), gpu };
}

/** What a stall scenario's run left: its events, and the behavior to read from (detach it with `dispose`). */
export interface StalledRun {
    readonly erosion: TerrainErosion;
    readonly events: ErosionErrorEvent[];
    readonly scene: Scene;
    dispose(): void;
}

/** The ground of the stall scenarios: 33 x 33 vertices of noise. */
export const STALL_SIZE = 33;
export const STALL_HEIGHTS = generateNoiseTerrain({ width: STALL_SIZE, depth: STALL_SIZE, relief: 20, seed: 8 });

/** Renders frames (a turn of the event loop each) until `done`, or fails naming `what` after `limitMs` of waiting. */
export async function renderUntil(scene: Scene, done: () => boolean, what: string, limitMs = 60000): Promise<void> {
    const started = performance.now();
    while (!done()) {
        if (performance.now() - started > limitMs) throw new Error(`Still waiting for ${what} after ${limitMs} ms.`);
        await renderFrames(scene, 1);
    }
}

/**
 * The stall scenario: erosion on the noise ground, its backends made by `make`; one cycle at
 * once (`runCycles`: a checkpoint there), a dig at cycle 1, batch 0, then frames run from there;
 * after `armAfter` of them `arm()` is called (the test's device or channel starts holding its
 * answers back). Returns once `finished` holds (or throws after a minute).
 */
export async function stalledRun(make: BackendMaker, options: ErosionOptionsInput, arm: () => void, finished: (run: StalledRun) => boolean, armAfter = 3): Promise<StalledRun> {
    makeBackendsWith(make);
    const env = createNullScene();
    try {
        const ground = createGroundWithHeights(env.scene, STALL_HEIGHTS, STALL_SIZE, STALL_SIZE);
        const erosion = new TerrainErosion({ ...options, autoStart: false });
        const events: ErosionErrorEvent[] = [];
        erosion.onErrorObservable.add((event) => events.push(event));
        ground.addBehavior(erosion);
        await erosion.whenReady();
        await erosion.runCycles(1);
        erosion.edits.dig({ x: -4, y: 0, z: 3 }, 5, 1.5);
        erosion.start();
        await renderFrames(env.scene, armAfter);
        arm();
        const run = { erosion, events, scene: env.scene, dispose: () => env.dispose() };
        await renderUntil(env.scene, () => finished(run), "the run to finish");
        await erosion.whenIdle();
        return run;
    } catch (error) {
        env.dispose();
        throw error;
    } finally {
        makeBackendsWith(null);
    }
}

/** The kinds of `events`, in order. */
export function kinds(events: readonly ErosionErrorEvent[]): string[] {
    return events.map((event) => event.kind);
}
