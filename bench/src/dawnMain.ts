/**
 * WebGPU kernel figures and the schedule's cycle figures (gpuCycle.ts) through Dawn for Node (the `webgpu` package's `dawn.node`), on whatever
 * adapter Dawn finds: a real GPU's Vulkan driver, or, when no driver is found and Chromium's
 * SwiftShader is installed, SwiftShader (the process then restarts itself with VK_ICD_FILENAMES).
 *
 *   node dawn.mjs [--quick] [--json=records.json] [--dawn=path/to/dawn.node] [--sizes=256,512]
 *
 * Without --dawn it loads the `webgpu` package from node_modules (npm run bench); the GPU kit
 * (bench/gpu-kit, bench/run-gpu-kit.sh) passes the dawn.node it carries.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { WebGpuComputeDevice } from "../../plugin/advanced.js";
import { runGpuCycleFigures } from "./gpuCycle.js";
import { benchDeviceDescriptor, describeAdapter, runGpuKernelBench } from "./gpuKernels.js";
import { formatTable, h200Comparison } from "./records.js";

/** Where Chromium's SwiftShader Vulkan driver is looked for when no GPU driver is found. */
const SWIFTSHADER_ICDS = [process.env.BENCH_SWIFTSHADER_ICD ?? "", "/usr/lib/chromium/vk_swiftshader_icd.json", "/usr/lib/chromium-browser/vk_swiftshader_icd.json", "/opt/google/chrome/vk_swiftshader_icd.json"];

interface Dawn {
    create(flags: string[]): GPU;
    globals: Record<string, unknown>;
}

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const printTable = args.includes("--table");
const jsonPath = args.find((arg) => arg.startsWith("--json="))?.slice(7);
const dawnPath = args.find((arg) => arg.startsWith("--dawn="))?.slice(7);
const sizesArg = args.find((arg) => arg.startsWith("--sizes="))?.slice(8);
const sizes = sizesArg ? sizesArg.split(",").map(Number) : undefined;
const log = (line: string) => process.stderr.write(line + "\n");
let gpu: GPU | null = null;

async function loadDawn(): Promise<Dawn> {
    if (dawnPath) {
        return createRequire(import.meta.url)(dawnPath) as Dawn;
    }
    return (await import("webgpu")) as unknown as Dawn;
}

/** Restarts this process with SwiftShader as the Vulkan driver; returns false if there is none. */
function restartOnSwiftShader(): boolean {
    const icd = SWIFTSHADER_ICDS.find((path) => path.length > 0 && existsSync(path));
    if (!icd || process.env.VK_ICD_FILENAMES) {
        return false;
    }
    log(`No WebGPU adapter through the system's Vulkan drivers; retrying on SwiftShader (VK_ICD_FILENAMES=${icd}).`);
    const child = spawnSync(process.execPath, process.argv.slice(1), { stdio: "inherit", env: { ...process.env, VK_ICD_FILENAMES: icd } });
    process.exit(child.status ?? 1);
}

async function main(): Promise<void> {
    const dawn = await loadDawn();
    Object.assign(globalThis, dawn.globals);
    // Held in a module variable until exit: Dawn frees the instance (and everything made from it)
    // when the GPU object is garbage-collected.
    gpu = dawn.create([]);
    const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
    if (!adapter) {
        if (!restartOnSwiftShader()) {
            throw new Error("Dawn found no WebGPU adapter (no Vulkan driver, and no SwiftShader to fall back on).");
        }
        return;
    }
    const adapterDescription = `${describeAdapter(adapter.info)} (Dawn for Node${process.env.VK_ICD_FILENAMES ? `, VK_ICD_FILENAMES=${process.env.VK_ICD_FILENAMES}` : ""})`;
    log(`Dawn adapter: ${adapterDescription}; timestamp queries: ${adapter.features.has("timestamp-query") ? "yes" : "no"}; Node ${process.version} (${process.execPath})`);
    const device = await adapter.requestDevice(benchDeviceDescriptor(adapter));
    device.addEventListener("uncapturederror", (event) => log(`WebGPU error: ${(event as GPUUncapturedErrorEvent).error.message}`));
    const records = await runGpuKernelBench(device, adapterDescription, { backend: "webgpu-dawn", quick, sizes, log });
    records.push(...(await runGpuCycleFigures(new WebGpuComputeDevice(device, adapterDescription), device, "webgpu-dawn", quick, log)));
    device.destroy();
    if (jsonPath) {
        try {
            writeFileSync(jsonPath, JSON.stringify({ adapter: adapterDescription, date: new Date().toISOString(), node: process.version, records }, null, 2));
        } catch (error) {
            log(`Could not write ${jsonPath}: ${error instanceof Error ? error.message : String(error)}`);
        }
    }
    if (printTable) {
        const comparison = h200Comparison(records, adapterDescription);
        console.log(`\nWebGPU through Dawn on ${adapterDescription}`);
        if (comparison.length > 0) {
            console.log(`Against the issue's H200 estimate (informs, does not gate):\n${comparison.join("\n")}`);
        }
        console.log(`\n${formatTable(records)}`);
    }
}

main().then(
    () => process.exit(0),
    (error) => {
        console.error(error);
        process.exit(1);
    }
);
