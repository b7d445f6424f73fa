/**
 * The landform terrains `npm run landforms` erodes (scripts/realism/landforms.ts) are what their
 * figures assume: the fan's valley opens onto its plain at the outlet, the wide valley's channel runs
 * down its centre line, and every vertex of the closed basin's field drains into the bowl.
 */
import { BASIN, closedBasin, FAN_OUTLET, LANDFORM_SIZE, mountainFront, VALLEY_HALF_WIDTH, wideValley } from "../../../scripts/realism/landforms.js";

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
});
