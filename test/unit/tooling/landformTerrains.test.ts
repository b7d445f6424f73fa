/**
 * The landform terrains `npm run landforms` erodes (scripts/realism/landforms.ts) are what their
 * figures assume: the fan's valley opens onto its plain at the outlet, the wide valley's channel runs
 * down its centre line, every vertex of the closed basin's field drains into the bowl, and the
 * escarpment's cliff is steeper than any rock stands, with its plateau draining away from it.
 */
import {
    APRON_OPTIONS, BASIN, closedBasin, escarpment, FAN_OUTLET, LANDFORM_SIZE, mountainFront, SCARP, VALLEY_HALF_WIDTH, wideValley,
} from "../../../scripts/realism/landforms.js";
import { CAPPED_OPTIONS } from "../../../scripts/realism/materialClaims.js";

const at = (heights: Float32Array, x: number, y: number) => heights[y * LANDFORM_SIZE + x];

describe("the landform terrains", () => {
    it("the mountain front: the valley's floor falls to the plain at the outlet, the range stands over it beside the valley", () => {
        const { heights } = mountainFront();
        const { x, y } = FAN_OUTLET;
        expect(Math.abs(at(heights, x, y + 1) - at(heights, x, y))).toBeLessThan(0.3);
        for (let row = y + 1; row < LANDFORM_SIZE; row++) expect(at(heights, x, row)).toBeLessThan(at(heights, x + 10, row));
        for (let row = 1; row <= y; row++) expect(at(heights, x, row)).toBeGreaterThan(at(heights, x, row - 1) - 0.2);
    });

    it("the wide valley: its centre line is the lowest of its floor (within the ripple), and the walls rise beside it", () => {
        const { heights } = wideValley();
        const centre = (LANDFORM_SIZE - 1) / 2;
        for (let row = 10; row < 100; row += 10) {
            expect(at(heights, centre, row)).toBeLessThan(at(heights, centre + VALLEY_HALF_WIDTH, row) );
            expect(at(heights, centre + VALLEY_HALF_WIDTH + 10, row)).toBeGreaterThan(at(heights, centre + VALLEY_HALF_WIDTH, row) + 4);
        }
    });

    it("the closed basin: walking down the steepest way from any vertex ends in the bowl", () => {
        const { heights } = closedBasin();
        for (let start = 0; start < heights.length; start += 97) {
            let x = start % LANDFORM_SIZE;
            let y = Math.floor(start / LANDFORM_SIZE);
            for (;;) {
                let best = at(heights, x, y);
                let next: [number, number] | null = null;
                for (let dy = -1; dy <= 1; dy++) {
                    for (let dx = -1; dx <= 1; dx++) {
                        const nx = x + dx;
                        const ny = y + dy;
                        if (nx < 0 || ny < 0 || nx >= LANDFORM_SIZE || ny >= LANDFORM_SIZE || at(heights, nx, ny) >= best) continue;
                        best = at(heights, nx, ny);
                        next = [nx, ny];
                    }
                }
                if (!next) break;
                [x, y] = next;
            }
            expect(Math.hypot(x - BASIN.x, y - BASIN.y)).toBeLessThan(BASIN.radius);
        }
    });

    it("the escarpment: a face steeper than thermal's talus of 2 from the plateau's edge to its foot, the plateau falling away from it, the plain below falling away too", () => {
        const { heights } = escarpment();
        for (let x = 4; x < LANDFORM_SIZE - 4; x += 7) {
            for (let y = SCARP.top; y < SCARP.foot; y++) expect(at(heights, x, y) - at(heights, x, y + 1)).toBeGreaterThan(2 * 2);
            for (let y = 1; y <= SCARP.top; y++) expect(at(heights, x, y)).toBeGreaterThan(at(heights, x, y - 1) - 0.2);
            for (let y = SCARP.foot + 1; y < LANDFORM_SIZE; y++) expect(at(heights, x, y)).toBeLessThan(at(heights, x, y - 1) + 0.2);
        }
        // The hard bed (30 to 42 cells) holds the cliff's top ten cells, as on the capped mesa.
        expect(APRON_OPTIONS).toEqual(CAPPED_OPTIONS);
        expect(at(heights, 64, SCARP.top)).toBeGreaterThan(39);
    });
});
