/**
 * The sample's shallow water: a "Rain" switch and a "Spring" tool in the panel, and the water
 * surface drawn over the terrain. The water runs (`water.enabled`) while it rains or any spring
 * flows; the surface shows while it runs. `?water=1` starts with rain.
 */
import type { Scene } from "@babylonjs/core/scene.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents.js";
import type { ErosionController, ErosionOptionsInput } from "../plugin/index.js";
import { TerrainWaterSurface } from "../plugin/water/index.js";

/**
 * The water options while it rains: twice the default rain (in cells, so the same on every
 * terrain), so on the generated terrain valleys run and hollows fill into lakes within about 20
 * cycles; the default evaporation leaves a sheet of rain / evaporation (0.2 cells) where nothing
 * flows, which the surface shows faintly (it fades in over `fadeDepth` above `minDepth`).
 */
export const SAMPLE_RAIN: NonNullable<ErosionOptionsInput["water"]> = { rain: 0.001 };

/** What the water controls need from the sample. */
export interface WaterControlsOptions {
    erosion: ErosionController;
    scene: Scene;
    grounds: GroundMesh[];
    /** The panel element the controls go into. */
    container: HTMLElement;
    /** The terrain's side in world units (sizes the springs). */
    size: number;
    /** Start with rain on (`?water=1`). */
    raining: boolean;
}

/** The water controls; `onReset()` after the erosion's reset (which removes its springs). */
export interface WaterControls {
    readonly surface: () => TerrainWaterSurface | null;
    readonly springCount: () => number;
    onReset(): void;
}

/** Builds the controls into `container` and starts the rain if asked. */
export function createWaterControls(options: WaterControlsOptions): WaterControls {
    const { erosion, scene, grounds, container, size } = options;
    container.innerHTML = `
        <label title="water.enabled with water.rain ${SAMPLE_RAIN.rain}"><input type="checkbox" id="water-rain"> Rain</label>
        <button id="water-spring" title="Then click on the terrain">Spring</button>
        <span id="water-springs">0 springs</span>
        <button id="water-remove">Remove springs</button>`;
    const rainSwitch = container.querySelector("#water-rain") as HTMLInputElement;
    const springButton = container.querySelector("#water-spring") as HTMLButtonElement;
    const springLabel = container.querySelector("#water-springs") as HTMLElement;
    const removeButton = container.querySelector("#water-remove") as HTMLButtonElement;

    let surface: TerrainWaterSurface | null = null;
    let placing = false;
    const springs: { remove(): boolean }[] = [];
    // A spring of a few cells fills a hollow in a few cycles: its rate in cells³ a step is the
    // same on every terrain (1 / 10000 of the field's cells), whatever the cell size.
    const springRadius = size / 100;
    const springRate = () => (size * size * erosion.maps.fieldCellSize) / 10000;

    const apply = (): void => {
        const raining = rainSwitch.checked;
        const running = raining || springs.length > 0;
        erosion.setOptions({ water: { enabled: running, rain: raining ? SAMPLE_RAIN.rain : 0 } });
        springLabel.textContent = `${springs.length} spring${springs.length === 1 ? "" : "s"}`;
        springButton.classList.toggle("active", placing);
        removeButton.disabled = springs.length === 0;
        showSurface(running);
    };
    const showSurface = (running: boolean): void => {
        if (running && !surface) {
            if (erosion.getGrounds().length === 0) {
                // Babylon attaches a behavior once the scene has loaded: try again next frame.
                scene.onBeforeRenderObservable.addOnce(() => showSurface(rainSwitch.checked || springs.length > 0));
                return;
            }
            surface = new TerrainWaterSurface(erosion);
        }
        if (surface) {
            surface.isEnabled = running;
        }
    };

    rainSwitch.onchange = apply;
    springButton.onclick = () => {
        placing = !placing;
        apply();
    };
    removeButton.onclick = () => {
        springs.splice(0).forEach((spring) => spring.remove());
        apply();
    };
    // A tap (a click without a drag, so the camera still turns) places a spring where it hits the terrain.
    scene.onPointerObservable.add((info) => {
        if (!placing || info.type !== PointerEventTypes.POINTERTAP || (info.event as PointerEvent).shiftKey) {
            return;
        }
        const pick = scene.pick(scene.pointerX, scene.pointerY, (mesh) => grounds.includes(mesh as GroundMesh));
        if (pick?.hit && pick.pickedPoint) {
            springs.push(erosion.edits.addWaterSource(pick.pickedPoint, springRadius, springRate()));
            apply();
        }
    });

    rainSwitch.checked = options.raining;
    apply();
    return {
        surface: () => surface,
        springCount: () => springs.length,
        onReset() {
            springs.length = 0;
            apply();
        },
    };
}
