/**
 * An edit's preview on the grounds' CPU data, shown again after a frame writes a region over part
 * of it: the vertices the frame wrote take the edit on their new heights, the rest keep the one
 * they show, so no vertex has it twice (a dig twice as deep) wherever the region ends.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { heightsToFixed, type GroundEdit } from "../../../plugin/index.js";
import { applyGroundEdit, COUNTER_COUNT, shapeGroundEdit } from "../../../plugin/advanced.js";
import { EditPreviews, GroundField } from "../../../plugin/internal.js";
import { createGroundWithHeights, createNullScene } from "../../helpers/nullScene.js";

const W = 40;
const D = 32;

describe("EditPreviews", () => {
    it("shows a pending dig once more over what a frame wrote, and never twice", () => {
        const env = createNullScene();
        try {
            const start = heightsToFixed(generateNoiseTerrain({ width: W, depth: D, seed: 3, relief: 8 }));
            const field = new GroundField([[createGroundWithHeights(env.scene, new Float32Array(W * D), W, D)]]);
            field.writeRows(start, 0, D, false);
            const edit: GroundEdit = { ...shapeGroundEdit({ kind: "dig", depth: 2 * 65536 }, [{ x: 20, y: 16 }], 6, W, D), cycle: 0, batch: 0, id: 1 };
            const previews = new EditPreviews(field);
            previews.add(edit, false);
            // A frame issued before the edit lands: the region it changed (eroded by a little), over part of the dig.
            const region = { x0: 10, y0: 14, x1: 22, y1: 19 };
            const eroded = start.map((height, i) => (i % W >= region.x0 && i % W < region.x1 && Math.floor(i / W) >= region.y0 && Math.floor(i / W) < region.y1 ? height - 3000 : height));
            const columns = region.x1 - region.x0;
            const rows = new Int32Array((region.y1 - region.y0) * columns);
            for (let y = region.y0; y < region.y1; y++) rows.set(eroded.subarray(y * W + region.x0, y * W + region.x1), (y - region.y0) * columns);
            field.writeRows(rows, region.y0, region.y1, false, undefined, region.x0, region.x1);
            previews.afterFrame([], region.y0, region.y1, false, region.x0, region.x1);
            // What the mesh should show: the frame's heights with the dig applied once.
            const expected = eroded.slice();
            applyGroundEdit(edit, W, expected, new Int32Array(W * D), new Float64Array(COUNTER_COUNT));
            const shown = field.readRows(0, D);
            const wrong = Array.from(shown).filter((height, i) => Math.abs(height - expected[i]) > 1).length;
            expect(wrong).toBe(0);
            expect(edit.rect.y0 < region.y0 && edit.rect.y1 > region.y1 && edit.rect.x1 > region.x1).toBe(true); // the dig reaches past the region every way but one
        } finally {
            env.dispose();
        }
    });
});
