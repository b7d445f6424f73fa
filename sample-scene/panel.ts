/**
 * The sample's on-screen panel: backend, cycles, progress, batches and erosion cost per frame, and
 * buttons to pause/resume, reset, run one cycle, open the Inspector and download the heights, and a
 * place for the water controls (sample-scene/waterControls.ts).
 */
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import type { ErosionController, ErosionStartup } from "../plugin/index.js";
import { EROSION_MAP_VIEWS, type ErosionMapView } from "../plugin/material/index.js";

/** What the panel shows and drives. */
export interface PanelOptions {
    erosion: ErosionController;
    engine: AbstractEngine;
    terrainLabel: string;
    terrains: { name: string; label: string; current: boolean }[];
    onInspector(): void;
    /** Shows the terrain coloured normally ("terrain") or one erosion map. */
    onMapMode(mode: ErosionMapView): void;
    /** Called after the erosion's reset (which clears its water sources). */
    onReset(): void;
    /** Start of downloaded file names. */
    fileStem: string;
    /** A line about the scene's weight (a software renderer), or null. */
    note: string | null;
    /** The lockstep connection's line (a player of the sample's server: its name, checks, and the server's last refusal or why it closed), or null. */
    lockstep(): string | null;
}

function download(bytes: BlobPart, name: string, type: string): void {
    const url = URL.createObjectURL(new Blob([bytes], { type }));
    const link = document.createElement("a");
    link.href = url;
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Builds the panel into the page; call `update()` every frame. */
export function createPanel(options: PanelOptions): { update(): void } {
    const { erosion, engine } = options;
    const panel = document.createElement("div");
    panel.id = "panel";
    const engineName = engine.isWebGPU ? "WebGPU" : "WebGL2";
    const terrain = new URLSearchParams(location.search).get("terrain");
    const terrainQuery = terrain ? `terrain=${encodeURIComponent(terrain)}` : "";
    const engineLink = engine.isWebGPU ? `<a href="?engine=webgl2${terrainQuery ? `&${terrainQuery}` : ""}">try WebGL2</a>` : `<a href="?${terrainQuery}">try WebGPU</a>`;
    panel.innerHTML = `
        <h1>Terrain erosion</h1>
        <div class="terrain">${options.terrainLabel}</div>
        ${options.note ? `<div class="note" id="stat-light"></div>` : ""}
        <dl>
            <dt>Engine</dt><dd id="stat-engine">${engineName} (${engineLink})</dd>
            <dt>Backend</dt><dd id="stat-backend">starting</dd>
            <dt>Cycles</dt><dd id="stat-cycles">0</dd>
            <dt>Progress</dt><dd><progress id="stat-progress" max="1" value="0"></progress></dd>
            <dt>Batches/frame</dt><dd id="stat-batches">0</dd>
            <dt>Erosion/frame</dt><dd id="stat-cost">-</dd>
            <dt>Last frames</dt><dd id="stat-frames" title="The last erosion frames (up to 240): median, 95th percentile and longest">-</dd>
            <dt>FPS</dt><dd id="stat-fps">-</dd>
            <dt class="lockstep" hidden>Lockstep</dt><dd class="lockstep" id="stat-lockstep" hidden>-</dd>
        </dl>
        <div class="buttons">
            <button id="button-toggle">Pause</button>
            <button id="button-reset">Reset</button>
            <button id="button-step">Run one cycle</button>
            <button id="button-inspector" title="Key: I">Inspector</button>
            <button id="button-png">Download 16-bit PNG</button>
            <button id="button-raw">Download raw f32</button>
        </div>
        <div class="maps">Show: <select id="map-mode">${EROSION_MAP_VIEWS.map((mode) => `<option value="${mode}">${mode === "none" ? "terrain (wet channels, sediment fans)" : `${mode} map`}</option>`).join("")}</select></div>
        <div class="water" id="water-controls"></div>
        <div class="tools" id="ground-tools"></div>
        <div class="hint">Shift-drag on the terrain to rain on it. Spring: click on the terrain to add one. Dig, Pile (soil), Stone (rock, with the materials on), Flatten: drag on the terrain; Blast: tap.</div>
        <div class="terrains">${options.terrains.map((terrain) => (terrain.current ? `<b>${terrain.label}</b>` : `<a href="?terrain=${terrain.name}${location.search.includes("webgl2") ? "&engine=webgl2" : ""}">${terrain.label}</a>`)).join("<br>")}</div>
        <div id="status"></div>`;
    document.body.appendChild(panel);
    const byId = (id: string) => panel.querySelector(`#${id}`) as HTMLElement;
    const status = byId("status");
    // As text: the renderer's name comes from the device.
    if (options.note) byId("stat-light").textContent = options.note;
    const report = (promise: Promise<unknown>, done: string) =>
        promise.then(
            () => (status.textContent = done),
            (error) => (status.textContent = `Error: ${error instanceof Error ? error.message : String(error)}`)
        );
    byId("button-toggle").onclick = () => (erosion.isRunning ? erosion.pause() : erosion.start());
    byId("button-reset").onclick = () => report(erosion.history.reset().then(() => options.onReset()), "Reset to the original terrain.");
    byId("button-step").onclick = () => report(erosion.runCycles(1), "Ran one cycle.");
    byId("button-inspector").onclick = () => options.onInspector();
    (byId("map-mode") as HTMLSelectElement).onchange = (event) => options.onMapMode((event.target as HTMLSelectElement).value as ErosionMapView);
    byId("button-png").onclick = () =>
        report(
            erosion.maps.exportPng16().then(({ png, range }) => download(png as BlobPart, `${options.fileStem}-eroded-${range.min.toFixed(2)}m-${range.max.toFixed(2)}m.png`, "image/png")),
            "Downloaded the 16-bit PNG (its file name gives the heights of samples 0 and 65535)."
        );
    byId("button-raw").onclick = () => report(erosion.maps.readHeights().then((heights) => download(heights.buffer as ArrayBuffer, `${options.fileStem}-eroded.f32`, "application/octet-stream")), "Downloaded raw little-endian float32 heights, row-major.");
    return {
        update() {
            byId("stat-backend").textContent = erosion.backend ? `${erosion.backend}${backendWhere(erosion)}${startingNote(erosion.startup)}` : startingNote(erosion.startup).slice(2) || "starting";
            byId("stat-cycles").textContent = String(erosion.cyclesCompleted);
            (byId("stat-progress") as HTMLProgressElement).value = erosion.progress;
            const frame = erosion.lastFrame;
            // A frame of a batch in pieces (one the budget cannot hold, spread over frames) says how far it is.
            byId("stat-batches").textContent = frame.pieces ? `1 batch in pieces, ${frame.pieces.to} of ${frame.pieces.total}` : String(frame.batches);
            const how = frame.measuredBy === "timestamp" ? "GPU timestamps" : frame.measuredBy === "submitted" ? "submit to done" : frame.measuredBy === "cpu" ? "worker" : "estimated";
            byId("stat-cost").textContent = `${(frame.measuredMs ?? frame.estimatedMs).toFixed(2)} ms (${how}), main thread ${frame.cpuMs.toFixed(2)} ms`;
            const { frames, erosion: cost, mainThread } = erosion.frameStats;
            byId("stat-frames").textContent = frames === 0 ? "-" : `${cost.medianMs.toFixed(1)} / ${cost.p95Ms.toFixed(1)} / ${cost.maxMs.toFixed(1)} ms (median / p95 / max of ${frames}), main thread ${mainThread.medianMs.toFixed(1)} / ${mainThread.p95Ms.toFixed(1)} / ${mainThread.maxMs.toFixed(1)} ms`;
            byId("stat-fps").textContent = engine.getFps().toFixed(0);
            byId("button-toggle").textContent = erosion.isRunning ? "Pause" : "Resume";
            const lockstep = options.lockstep();
            panel.querySelectorAll<HTMLElement>(".lockstep").forEach((element) => (element.hidden = lockstep === null));
            if (lockstep !== null) byId("stat-lockstep").textContent = lockstep;
        },
    };
}

/** Where the CPU backend runs: its Web Worker and, with a pool, how many workers and whether they share memory. */
function backendWhere(erosion: ErosionController): string {
    const pool = erosion.cpuPool;
    if (!erosion.backendInWorker) return "";
    if (!pool || pool.workers === 1) return " (Web Worker)";
    return ` (${pool.workers} Web Workers, ${pool.sharedMemory ? "shared memory" : "copying"})`;
}

/** What the start is doing (", compiling kernels 12 of 40" and the like), or "" once the first batches are on the mesh. */
function startingNote(startup: ErosionStartup | null): string {
    if (!startup) return "";
    const seconds = `${(startup.ms / 1000).toFixed(1)} s`;
    switch (startup.phase) {
        case "creating-buffers":
            return `, creating buffers (${seconds})`;
        case "compiling-kernels":
            return `, compiling kernels ${startup.kernelsCompiled} of ${startup.kernels} (${seconds})`;
        case "starting-workers":
            return `, starting the CPU workers (${seconds})`;
        case "uploading":
            return `, uploading the terrain (${seconds})`;
        case "first-batch":
            return `, first batch on its way (${seconds})`;
        default:
            return "";
    }
}
