// Renders the README's pictures of landforms that build: the mountain front (a fan at the valley's
// outlet), the wide valley (its floor aggrading beside the channel) and the closed basin (a delta
// at the mouth of the valley feeding it), before and after
// `LANDFORM_CYCLES` cycles at the defaults, hillshaded and tinted amber where material was laid
// down, blue where it was cut (full tint at 0.3 cells, the delta's at 2). The CPU reference: the sample's
// WebGPU and CPU backends give the same integers. `npx tsx scripts/render-landforms.ts` writes
// docs/images/landforms/*.png.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { changePng } from "./realism/hillshade.js";
import { LANDFORM_CYCLES } from "./realism/landformClaims.js";
import { closedBasin, erodeLandform, mountainFront, wideValley } from "./realism/landforms.js";

const DIRECTORY = join(process.cwd(), "docs/images/landforms");

async function main(): Promise<void> {
    mkdirSync(DIRECTORY, { recursive: true });
    for (const [name, terrain, scale] of [["fan", mountainFront(), 0.3], ["floodplain", wideValley(), 0.3], ["delta", closedBasin(), 2]] as const) {
        const { change } = erodeLandform(terrain, {}, LANDFORM_CYCLES);
        const after = Float64Array.from(change, (d, i) => terrain.heights[i] + d);
        const { width, depth, heights } = terrain;
        writeFileSync(join(DIRECTORY, `${name}-before.png`), await changePng(heights, heights, width, depth, 1, scale));
        writeFileSync(join(DIRECTORY, `${name}-after.png`), await changePng(heights, after, width, depth, 1, scale));
        console.log(`${name}: docs/images/landforms/${name}-before.png, ${name}-after.png`);
    }
}

void main();
