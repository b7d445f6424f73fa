/**
 * The sample's ground tools: Dig, Pile, Flatten and Blast in the panel. With a tool chosen, press
 * and drag on the terrain to dig or pile along the pointer's path (a canal, a levee, a dam), to
 * level it at the height where the press began (a road), or tap to blast a crater. Each stroke is
 * a ground edit (`dig`, `pile`, `flatten`, `crater`, `along`): seen at once, eroded from there, and
 * the same on both backends. With the Rain switch or a spring on, a player can dam a river and watch
 * the water fill behind the dam and spill over it.
 */
import type { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents.js";
import type { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { ErosionController } from "../plugin/index.js";

/** The tools, by the name on their button. */
export const GROUND_TOOLS = ["Dig", "Pile", "Flatten", "Blast"] as const;

/** What the ground tools need from the sample. */
export interface GroundToolsOptions {
    erosion: ErosionController;
    scene: Scene;
    camera: ArcRotateCamera;
    canvas: HTMLCanvasElement;
    grounds: GroundMesh[];
    /** The panel element the buttons go into. */
    container: HTMLElement;
    /** The terrain's side and relief in world units (size the tools). */
    size: number;
    relief: number;
}

/** Builds the buttons; returns the tool in use (for tests) and the edits made. */
export function createGroundTools(options: GroundToolsOptions): { readonly tool: () => string | null; readonly edits: () => number } {
    const { erosion, scene, camera, canvas, grounds, container, size, relief } = options;
    container.innerHTML = GROUND_TOOLS.map((name) => `<button data-tool="${name}" title="${name === "Blast" ? "Then tap" : "Then drag"} on the terrain">${name}</button>`).join("");
    let tool: string | null = null;
    let edits = 0;
    // A stroke a few cells wide and a twentieth of the relief deep, whatever the terrain's size.
    const width = size / 40;
    const depth = Math.max(relief / 20, size / 400);
    container.querySelectorAll("button").forEach((button) => {
        button.onclick = () => {
            tool = tool === button.dataset.tool ? null : button.dataset.tool!;
            container.querySelectorAll("button").forEach((other) => other.classList.toggle("active", other.dataset.tool === tool));
        };
    });
    const picked = (): Vector3 | null => {
        const pick = scene.pick(scene.pointerX, scene.pointerY, (mesh) => grounds.includes(mesh as GroundMesh));
        return pick?.hit && pick.pickedPoint ? pick.pickedPoint.clone() : null;
    };
    let last: Vector3 | null = null;
    let level = 0;
    const strokeTo = (point: Vector3): void => {
        if (!last || point.subtract(last).length() < width / 2) return;
        const path = [last, point];
        erosion.along(path, width, tool === "Dig" ? { dig: depth } : tool === "Pile" ? { pile: depth } : { flatten: { to: level } });
        edits++;
        last = point;
    };
    scene.onPointerObservable.add((info) => {
        const event = info.event as PointerEvent;
        if (!tool || event.shiftKey) return;
        if (info.type === PointerEventTypes.POINTERTAP && tool === "Blast") {
            const point = picked();
            if (point) {
                erosion.crater(point, width * 1.5, depth * 2);
                edits++;
            }
        } else if (info.type === PointerEventTypes.POINTERDOWN && tool !== "Blast") {
            last = picked();
            if (!last) return;
            level = last.y;
            camera.detachControl();
            if (tool === "Dig") erosion.dig(last, width / 2, depth);
            else if (tool === "Pile") erosion.pile(last, width / 2, depth);
            else erosion.flatten(last, width / 2, { to: level });
            edits++;
        } else if (info.type === PointerEventTypes.POINTERMOVE && last) {
            const point = picked();
            if (point) strokeTo(point);
        } else if (info.type === PointerEventTypes.POINTERUP && last) {
            last = null;
            camera.attachControl(canvas, true);
        }
    });
    return { tool: () => tool, edits: () => edits };
}
