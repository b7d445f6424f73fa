/**
 * `GroundField.writeRows` with normals computed elsewhere (the CPU backend's worker,
 * `normalRowsFromFixed`): the grounds end with the same floats as when the main thread computes
 * every normal itself, written whole or a band at a time, whole rows or a region's columns, on one
 * ground or a world of several.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { createGroundTilesFromHeights, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { heightsToFixed } from "../../../plugin/index.js";
import { GroundField, normalRowsFromFixed } from "../../../plugin/internal.js";
import { createNullScene } from "../../helpers/nullScene.js";

const W = 61;
const D = 45;
const CELL = 2;
const start = generateNoiseTerrain({ width: W, depth: D, relief: 30, seed: 4 });
/** The field after "erosion": every row changed, some more than others. */
const eroded = heightsToFixed(generateNoiseTerrain({ width: W, depth: D, relief: 40, seed: 9 }), "eroded", undefined, CELL);

describe("GroundField.writeRows with normals from the worker", () => {
    let env: ReturnType<typeof createNullScene>;
    beforeEach(() => (env = createNullScene()));
    afterEach(() => env.dispose());

    const field = (tiles: { columns: number[]; rows: number[] }) => {
        const grounds = createGroundTilesFromHeights("tile", start, { columns: W, rows: D, extent: { width: (W - 1) * CELL, height: (D - 1) * CELL }, tiles }, env.scene);
        return { grounds, field: new GroundField(grounds) };
    };
    const normalsOf = (grounds: GroundMesh[][]) => grounds.flat().map((ground) => Array.from(ground.getVerticesData(VertexBuffer.NormalKind)!));
    /** Writes `eroded` in bands (`cuts` the rows where one ends), each with its rows' normals computed from the whole field, or with `given` for them. */
    const writeInBands = (target: GroundField, cuts: number[], given?: (y0: number, y1: number) => Float32Array) => {
        let y0 = 0;
        for (const y1 of [...cuts, D]) {
            const normals = given ? given(y0, y1) : normalRowsFromFixed(eroded, W, D, CELL, y0, y1);
            target.writeRows(eroded.subarray(y0 * W, y1 * W), y0, y1, false, normals);
            y0 = y1;
        }
    };

    const layouts: [string, { columns: number[]; rows: number[] }][] = [
        ["one ground", { columns: [W - 1], rows: [D - 1] }],
        ["a world of 3 x 2 grounds", { columns: [24, 16, 20], rows: [12, 32] }],
    ];
    for (const [name, tiles] of layouts) {
        it(`${name}: the same floats as the main thread's own normals, whole and in bands`, () => {
            const reference = field(tiles);
            reference.field.writeRows(eroded, 0, D, false);
            const expected = normalsOf(reference.grounds);
            for (const cuts of [[], [1], [10, 11, 30], [D - 1], [7, 20, 21, 22, 40]]) {
                const banded = field(tiles);
                writeInBands(banded.field, cuts);
                expect(normalsOf(banded.grounds)).toEqual(expected);
            }
        });
    }

    /** `eroded` inside `region` shrunk by one (the changed heights; a frame's region is grown by one for the normals around them), the start outside. */
    const region = { x0: 13, y0: 5, x1: 40, y1: 38 };
    const startFixed = heightsToFixed(start, "start", undefined, CELL);
    const partial = startFixed.map((height, i) => {
        const x = i % W;
        const y = Math.floor(i / W);
        return x > region.x0 && x < region.x1 - 1 && y > region.y0 && y < region.y1 - 1 ? eroded[i] : height;
    });
    for (const [name, tiles] of layouts) {
        it(`${name}: a region's columns written in bands (the CPU backend's frames) give the same floats as whole rows`, () => {
            const positionsOf = (grounds: GroundMesh[][]) => grounds.flat().map((ground) => Array.from(ground.getVerticesData(VertexBuffer.PositionKind)!));
            const reference = field(tiles);
            reference.field.writeRows(startFixed, 0, D, false);
            reference.field.writeRows(partial, 0, D, false);
            const { x0, x1 } = region;
            const columns = x1 - x0;
            for (const cuts of [[], [6, 20], [region.y1 - 1]]) {
                const target = field(tiles);
                target.field.writeRows(startFixed, 0, D, false);
                let y0 = region.y0;
                for (const y1 of [...cuts, region.y1]) {
                    const rows = new Int32Array((y1 - y0) * columns);
                    for (let y = y0; y < y1; y++) rows.set(partial.subarray(y * W + x0, y * W + x1), (y - y0) * columns);
                    target.field.writeRows(rows, y0, y1, false, normalRowsFromFixed(partial, W, D, CELL, y0, y1, undefined, x0, x1), x0, x1);
                    y0 = y1;
                }
                expect(positionsOf(target.grounds)).toEqual(positionsOf(reference.grounds));
                expect(normalsOf(target.grounds)).toEqual(normalsOf(reference.grounds));
            }
        });
    }

    it("takes the given normals for the rows whose neighbours were all written, and computes the rest", () => {
        const { grounds, field: target } = field({ columns: [W - 1], rows: [D - 1] });
        // NaN where the worker's normals are taken: the rows inside each band (and the field's edge rows).
        writeInBands(target, [10, 30], (y0, y1) => new Float32Array((y1 - y0) * W * 3).fill(NaN));
        const normals = grounds[0][0].getVerticesData(VertexBuffer.NormalKind)!;
        const given = Array.from({ length: D }, (_, y) => Number.isNaN(normals[y * W * 3]));
        const expected = Array.from({ length: D }, (_, y) => ![9, 10, 29, 30].includes(y));
        expect(given).toEqual(expected);
    });
});
