/**
 * Every kernel's CPU mirror is recorded as data (KERNELS' `mirror`, SHADER_MIRRORS) and each
 * pointer holds: the file exists under plugin/ and declares the named function or constant. The
 * shaders name no mirror file in prose (a moved file would leave it stale).
 */
import { existsSync, readFileSync } from "node:fs";
import { kernelFile, KERNELS, SHADER_MIRRORS, type KernelMirror, type KernelName } from "../../../plugin/advanced.js";
import { shaderPath, shaderPaths } from "../../helpers/shaderFiles.js";

/** Why `mirror` does not hold (the file missing, or the name not declared there), or null. */
function brokenMirror({ file, name }: KernelMirror): string | null {
    const path = `plugin/${file}`;
    if (!existsSync(path)) return `${path} does not exist`;
    const declared = new RegExp(`^export (?:async )?(?:function|const|class) ${name}\\b`, "m");
    return declared.test(readFileSync(path, "utf8")) ? null : `${path} declares no exported ${name}`;
}

describe("the kernels' CPU mirrors", () => {
    it.each(Object.entries(KERNELS))("%s: its shader file and its mirror exist", (kernel, spec) => {
        expect(shaderPath(kernelFile(kernel as KernelName))).not.toBeNull();
        expect(brokenMirror(spec.mirror)).toBeNull();
    });

    it("every shader's further mirrors exist", () => {
        const broken = Object.entries(SHADER_MIRRORS).flatMap(([shader, mirrors]) => [
            ...(shaderPath(shader) !== null ? [] : [`shaders/**/${shader}.wgsl does not exist`]),
            ...mirrors.map((mirror) => brokenMirror(mirror)).filter((problem) => problem !== null).map((problem) => `${shader}: ${problem}`),
        ]);
        expect(broken).toEqual([]);
    });

    it("finds a pointer planted wrong", () => {
        expect(brokenMirror({ file: "kernels/fold/clipDelta.ts", name: "clipDelta" })).toBeNull();
        expect(brokenMirror({ file: "kernels/clipDelta.ts", name: "clipDelta" })).toMatch(/does not exist/);
        expect(brokenMirror({ file: "kernels/fold/clipDelta.ts", name: "riverSlots" })).toMatch(/declares no exported riverSlots/);
    });

    it("leaves the shaders' comments free of mirror file names (the tables above hold them)", () => {
        const paths = shaderPaths();
        expect(paths.length).toBeGreaterThan(20);
        const naming = paths.filter((path) => /plugin\/kernels\//.test(readFileSync(path, "utf8")));
        expect(naming).toEqual([]);
    });
});
