/**
 * The sample scene's tools in headless Chromium (WebGL2, CPU backend): each erosion map in turn, rain
 * under a shift-drag (erodeAt), the Dig and Blast tools (ground edits) with Undo and Redo, and the
 * Inspector tuning the running erosion.
 */
import { openSample } from "../helpers/sample.js";

describe("erosion maps and local erosion in the sample", () => {
    it("shows each map in turn, rains on the terrain under a shift-drag (erodeAt), digs under a drag and blasts under a tap", async () => {
        const sample = await openSample("?engine=webgl2&size=65&droplets=64");
        try {
            await sample.page.evaluate(() => (window as any).sample.erosionMaterial.whenReady);
            const shots: Buffer[] = [];
            for (const mode of ["water", "wear", "deposition", "direction"]) {
                await sample.page.selectOption("#map-mode", mode);
                await sample.page.waitForTimeout(300);
                expect(await sample.page.evaluate(() => (window as any).sample.erosionMaterial.mapView)).toBe(mode);
                shots.push(await sample.page.screenshot());
            }
            expect(new Set(shots.map((shot) => shot.toString("base64"))).size).toBe(4);
            await sample.page.evaluate(() => (window as any).sample.erosion.pause());
            const box = (await sample.page.locator("#renderCanvas").boundingBox())!;
            await sample.page.keyboard.down("Shift");
            await sample.page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.6);
            await sample.page.mouse.down();
            await sample.page.mouse.move(box.x + box.width * 0.65, box.y + box.height * 0.62, { steps: 4 });
            await sample.page.mouse.up();
            await sample.page.keyboard.up("Shift");
            const events = await sample.page.evaluate(() => (window as any).sample.erosion.localEvents);
            expect(events.inForce + events.pending).toBeGreaterThan(0);
            // Dig: a drag carves a canal along the pointer's path (ground edits, seen at once).
            // Erosion is paused: the state moves only by the edits and their undoing. (Two frames
            // first: a paused frame applies the edits stamped where the run stands.)
            const state = () => sample.page.evaluate(async () => {
                const erosion = (window as any).sample.erosion;
                await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
                await erosion.whenIdle();
                return { fingerprint: await erosion.fingerprint(), removed: (await erosion.maps.readCounters()).editRemoved };
            });
            await sample.page.click('#ground-tools button[data-tool="Dig"]');
            expect(await sample.page.evaluate(() => window.scrollY)).toBe(0); // the panel scrolls, not the page
            const beforeDig = await state();
            await sample.page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.6);
            await sample.page.mouse.down();
            await sample.page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.66, { steps: 6 });
            await sample.page.mouse.up();
            expect(await sample.page.evaluate(() => (window as any).sample.tools.edits())).toBeGreaterThan(2);
            const dug = await state();
            expect(dug.removed).toBeGreaterThan(beforeDig.removed);
            await sample.page.click('#ground-tools button[data-tool="Blast"]');
            await sample.page.mouse.click(box.x + box.width * 0.62, box.y + box.height * 0.72);
            const blasted = await state();
            expect(blasted.fingerprint).not.toBe(dug.fingerprint);
            // Ctrl+Z takes back the blast, Undo the whole canal stroke, Ctrl+Y gives the canal back: each exactly.
            await sample.page.keyboard.press("Control+z");
            expect(await state()).toEqual(dug);
            await sample.page.click('#ground-tools button[data-action="undo"]');
            expect(await state()).toEqual(beforeDig);
            await sample.page.keyboard.press("Control+y");
            expect(await state()).toEqual(dug);
            expect(sample.errors).toEqual([]);
        } finally {
            await sample.close();
        }
    });
});

describe("Inspector tuning in the sample", () => {
    it("opens the Inspector with the ground selected, shows the erosion controls, and a switch changes the option", async () => {
        // A desktop-sized window: the Inspector's panes take most of a small one.
        const sample = await openSample("?engine=webgl2&size=65&droplets=64", { width: 900, height: 600 });
        try {
            await sample.page.keyboard.press("i");
            await sample.page.getByText("hydraulic inertia", { exact: false }).first().waitFor({ timeout: 90000 });
            expect(await sample.page.getByText("thermal talus", { exact: false }).count()).toBeGreaterThan(0);
            expect(await sample.page.evaluate(() => (window as any).sample.erosion.options.thermal.enabled)).toBe(true);
            // The property line: the label's span, two divs up, holds the Fluent UI switch.
            await sample.page.locator("xpath=//span[normalize-space(text())='thermal enabled']/ancestor::div[2]//input[@role='switch']").first().click({ force: true });
            await sample.page.waitForFunction(() => (window as any).sample.erosion.options.thermal.enabled === false, undefined, { timeout: 10000 });
            expect(sample.errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
        } finally {
            await sample.close();
        }
    });
});
