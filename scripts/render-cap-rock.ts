// Renders the README's cap-rock pictures: hillshades of the cap-rock plateau (129²) after 40 cycles,
// of uniform rock and capped by one hard bed (scripts/realism/materialClaims.ts has the options):
// `npx tsx scripts/render-cap-rock.ts` writes docs/images/cap-rock-uniform.png and cap-rock-capped.png.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { drainageField } from "../plugin/terrain.js";
import { hillshadePng } from "./realism/hillshade.js";
import { CAP_ROCK_CYCLES, CAP_ROCK_OPTIONS, CAPPED_OPTIONS, capRockFigures, capRockPlateau, erodeWithSoil } from "./realism/materialClaims.js";

async function main(): Promise<void> {
    const plateau = capRockPlateau(129);
    for (const [name, options] of [["uniform", CAP_ROCK_OPTIONS], ["capped", CAPPED_OPTIONS]] as const) {
        const { heights } = erodeWithSoil(plateau, options, CAP_ROCK_CYCLES);
        const field = drainageField(heights, plateau.width, plateau.depth, 1);
        writeFileSync(join(process.cwd(), `docs/images/cap-rock-${name}.png`), await hillshadePng(heights, field, 1));
        console.log(name, capRockFigures(heights, plateau.heights, plateau.width));
    }
}

void main();
