// Renders the README's pictures of landforms that build: the mountain front (a fan at the valley's
// outlet), the wide valley (its floor aggrading beside the channel) and the closed basin (a delta
// into its lake, with the shallow water on: `DELTA_OPTIONS`), before and after `LANDFORM_CYCLES`
// cycles at the defaults, and the escarpment (a talus apron at its foot) after `APRON_CYCLES` of
// the mesa's settings (`APRON_OPTIONS`), hillshaded and tinted amber where material was laid
// down, blue where it was cut (full tint at 0.3 cells). The CPU reference: the sample's
// WebGPU and CPU backends give the same integers. `npx tsx scripts/render-landforms.ts` writes
// docs/images/landforms/*.png.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { changePng } from "./realism/hillshade.js";
import { APRON_CYCLES, LANDFORM_CYCLES } from "./realism/landformClaims.js";
import { APRON_OPTIONS, closedBasin, DELTA_OPTIONS, erodeLandform, escarpment, mountainFront, wideValley } from "./realism/landforms.js";

const DIRECTORY = join(process.cwd(), "docs/images/landforms");

async function main(): Promise<void> {
    mkdirSync(DIRECTORY, { recursive: true });
    const runs = [
        ["fan", mountainFront(), {}, LANDFORM_CYCLES],
        ["floodplain", wideValley(), {}, LANDFORM_CYCLES],
        ["delta", closedBasin(), DELTA_OPTIONS, LANDFORM_CYCLES],
        ["apron", escarpment(), APRON_OPTIONS, APRON_CYCLES],
    ] as const;
    for (const [name, terrain, options, cycles] of runs) {
        const { change } = erodeLandform(terrain, options, cycles);
        const after = Float64Array.from(change, (d, i) => terrain.heights[i] + d);
        const { width, depth, heights } = terrain;
        writeFileSync(join(DIRECTORY, `${name}-before.png`), await changePng(heights, heights, width, depth, 1, 0.3));
        writeFileSync(join(DIRECTORY, `${name}-after.png`), await changePng(heights, after, width, depth, 1, 0.3));
        console.log(`${name}: docs/images/landforms/${name}-before.png, ${name}-after.png`);
    }
}

void main();
