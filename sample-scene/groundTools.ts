/**
 * The sample's ground tools: Dig, Pile, Stone, Flatten and Blast in the panel. With a tool chosen,
 * press and drag on the terrain to dig or pile along the pointer's path (a canal, a levee, a dam:
 * Pile lays loose soil, Stone rock that holds where the materials are on), to
 * level it at the height where the press began (a road), or tap to blast a crater. Each stroke is
 * a ground edit (`dig`, `pile`, `flatten`, `crater`, `along`): seen at once, eroded from there, and
 * the same on both backends. With the Rain switch or a spring on, a player can dam a river and watch
 * the water fill behind the dam and spill over it. Undo and Redo (Ctrl+Z, Ctrl+Y) take back and give
 * back a whole stroke (its edits at once), or any other input (an Inspector change, a spring).
 */
import type { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents.js";
import type { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { ErosionController } from "../plugin/index.js";

/** The hardness (times the soil's) of the rock the Stone tool lays. */
const STONE_HARDNESS = 50;

/** The tools, by the name on their button. */
export const GROUND_TOOLS = ["Dig", "Pile", "Stone", "Flatten", "Blast"] as const;

/** What each tool's button says it does. */
const TOOL_TITLES: Record<(typeof GROUND_TOOLS)[number], string> = {
    Dig: "Then drag on the terrain: a canal",
    Pile: "Then drag on the terrain: a bank of loose soil, which water overtopping it cuts through",
    Stone: `Then drag on the terrain: a stone levee (with the materials on, rock ${STONE_HARDNESS} times as hard as soil: water runs over it and it holds)`,
    Flatten: "Then drag on the terrain: level it at the height where the press began",
    Blast: "Then tap on the terrain",
};

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

/** Builds the buttons; returns the tool in use (for tests), the edits made, and undo and redo of a stroke. */
export function createGroundTools(options: GroundToolsOptions): { readonly tool: () => string | null; readonly edits: () => number; undo(): Promise<void>; redo(): Promise<void> } {
    const { erosion, scene, camera, canvas, grounds, container, size, relief } = options;
    container.innerHTML =
        GROUND_TOOLS.map((name) => `<button data-tool="${name}" title="${TOOL_TITLES[name]}">${name}</button>`).join("") +
        `<button data-action="undo" title="Ctrl+Z: take back the last stroke or change">Undo</button><button data-action="redo" title="Ctrl+Y: give it back">Redo</button>`;
    const history = strokeHistory(erosion);
    let tool: string | null = null;
    let edits = 0;
    // A stroke a few cells wide and a twentieth of the relief deep, whatever the terrain's size.
    const width = size / 40;
    const depth = Math.max(relief / 20, size / 400);
    container.querySelectorAll<HTMLButtonElement>("button[data-tool]").forEach((button) => {
        button.onclick = () => {
            tool = tool === button.dataset.tool ? null : button.dataset.tool!;
            container.querySelectorAll<HTMLButtonElement>("button[data-tool]").forEach((other) => other.classList.toggle("active", other.dataset.tool === tool));
        };
    });
    const undoButton = container.querySelector<HTMLButtonElement>('button[data-action="undo"]')!;
    const redoButton = container.querySelector<HTMLButtonElement>('button[data-action="redo"]')!;
    undoButton.onclick = () => void history.undo();
    redoButton.onclick = () => void history.redo();
    window.addEventListener("keydown", (event) => {
        if (!(event.ctrlKey || event.metaKey)) return;
        const key = event.key.toLowerCase();
        if (key === "z" && !event.shiftKey) void history.undo();
        else if (key === "y" || (key === "z" && event.shiftKey)) void history.redo();
        else return;
        event.preventDefault();
    });
    scene.onBeforeRenderObservable.add(() => {
        undoButton.disabled = !history.canUndo();
        redoButton.disabled = !history.canRedo();
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
        erosion.edits.along(path, width, tool === "Dig" ? { dig: depth } : tool === "Pile" ? { pile: depth } : tool === "Stone" ? { pile: depth, rock: STONE_HARDNESS } : { flatten: { to: level } });
        history.edited();
        edits++;
        last = point;
    };
    scene.onPointerObservable.add((info) => {
        const event = info.event as PointerEvent;
        if (!tool || event.shiftKey) return;
        if (info.type === PointerEventTypes.POINTERTAP && tool === "Blast") {
            const point = picked();
            if (point) {
                history.begin();
                erosion.edits.crater(point, width * 1.5, depth * 2);
                history.edited();
                edits++;
            }
        } else if (info.type === PointerEventTypes.POINTERDOWN && tool !== "Blast") {
            last = picked();
            if (!last) return;
            level = last.y;
            history.begin();
            camera.detachControl();
            if (tool === "Dig") erosion.edits.dig(last, width / 2, depth);
            else if (tool === "Pile") erosion.edits.pile(last, width / 2, depth);
            else if (tool === "Stone") erosion.edits.pile(last, width / 2, depth, { rock: STONE_HARDNESS });
            else erosion.edits.flatten(last, width / 2, { to: level });
            history.edited();
            edits++;
        } else if (info.type === PointerEventTypes.POINTERMOVE && last) {
            const point = picked();
            if (point) strokeTo(point);
        } else if (info.type === PointerEventTypes.POINTERUP && last) {
            last = null;
            camera.attachControl(canvas, true);
        }
    });
    return { tool: () => tool, edits: () => edits, undo: history.undo, redo: history.redo };
}

/**
 * Strokes as the log numbers them: each begins at the log's next entry, so an undo that finds the
 * last input in force inside the last stroke takes back the whole stroke's edits at once. A lockstep
 * player (`forwardInputs` set: the log is the host's, every player's entries in it) counts its own
 * stroke's edits instead and asks the host to take back that many of its own inputs.
 */
function strokeHistory(erosion: ErosionController): { begin(): void; edited(): void; canUndo(): boolean; canRedo(): boolean; undo(): Promise<void>; redo(): Promise<void> } {
    const nextSeq = () => (erosion.history.inputLog.at(-1)?.seq ?? 0) + 1;
    const strokes: { first: number; edits: number }[] = [];
    const undone: { first: number; count: number }[] = [];
    const lockstep = () => erosion.lockstep.forwardInputs !== null;
    return {
        begin: () => {
            strokes.push({ first: nextSeq(), edits: 0 });
            undone.length = 0;
        },
        edited: () => {
            const stroke = strokes.at(-1);
            if (stroke) stroke.edits++;
        },
        canUndo: () => (lockstep() ? strokes.length > 0 : erosion.history.undoable !== null),
        canRedo: () => (lockstep() ? undone.length > 0 : erosion.history.redoable !== null),
        undo: async () => {
            if (lockstep()) {
                // The host takes back this player's own last inputs: the stroke's edits, as one undo of the player's.
                const stroke = strokes.pop();
                if (!stroke || stroke.edits === 0) return;
                await erosion.history.undo(stroke.edits);
                undone.push({ first: stroke.first, count: stroke.edits });
                return;
            }
            const target = erosion.history.undoable;
            if (!target) return;
            const first = strokes.at(-1)?.first;
            const count = first !== undefined && target.seq >= first ? target.seq - first + 1 : 1;
            if (count > 1 || (first !== undefined && target.seq === first)) strokes.pop();
            const taken = await erosion.history.undo(count);
            if (taken.length > 0) undone.push({ first: taken.at(-1)!.seq, count: taken.length });
        },
        redo: async () => {
            if (lockstep()) {
                const stroke = undone.pop();
                if (!stroke) return;
                await erosion.history.redo(stroke.count);
                strokes.push({ first: stroke.first, edits: stroke.count });
                return;
            }
            const target = erosion.history.redoable;
            if (!target) return;
            const stroke = undone.at(-1);
            const count = stroke && stroke.first === target.seq ? stroke.count : 1;
            if (stroke && stroke.first === target.seq) undone.pop();
            const given = await erosion.history.redo(count);
            if (given.length > 1) strokes.push({ first: given[0].seq, edits: given.length });
        },
    };
}
