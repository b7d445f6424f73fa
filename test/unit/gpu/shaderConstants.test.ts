/**
 * One source for every constant TypeScript and WGSL share: the generated header (`shaderHeader`)
 * writes each from its TypeScript value, and no kernel in `shaders/` writes the value out again.
 *
 * Scalars: a numeric literal (decimal or hex, integer or float, with or without a suffix) whose
 * magnitude is that of a header constant of magnitude 64 or more is a copy. Smaller values (0, 1, 2,
 * shifts of 16, the 8 neighbours) stand for too many unrelated things to tell a copy from a
 * coincidence. Arrays: a table's elements are often unrelated small numbers (and an element may
 * equal an unrelated scalar, such as cos 45° and 1/sqrt 2 in Q16), so an array counts as copied when
 * a kernel writes out a run of its consecutive elements (four, or the whole array if shorter) as a
 * list of literals. Comments are not code, and may quote values.
 */
import { readFileSync } from "node:fs";
import { shaderHeader } from "../../../plugin/gpu/shaderLibrary.js";
import { shaderPaths } from "../../helpers/shaderFiles.js";

/** A constant of the generated header, with its value (scalars) or elements (arrays). */
interface HeaderConstant {
    readonly name: string;
    readonly values: readonly number[];
    readonly isArray: boolean;
}

/** Smallest magnitude of a scalar constant whose value may not appear as a literal. */
const SCALAR_THRESHOLD = 64;
/** Consecutive elements of an array that make a copy (fewer when the array is shorter). */
const ARRAY_RUN = 4;

/** An integer or float literal of WGSL, not part of a name (`vec4`, `i32`) or of another literal. */
const LITERAL = /(?<![\w.])(?:0[xX][0-9a-fA-F]+[iu]?|(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?[fh]?|\d+[eE][+-]?\d+[fh]?|\d+[iufh]?)(?![\w.])/g;

function literalValue(text: string): number {
    const digits = text.replace(/[iufh]$/, "");
    return /^0[xX]/.test(digits) ? parseInt(digits.slice(2), 16) : Number(digits);
}

/** The scalar and array constants the header defines. */
function headerConstants(header: string): HeaderConstant[] {
    const constants: HeaderConstant[] = [];
    for (const match of header.matchAll(/^const (\w+)(?:: \w+)? = (.+);$/gm)) {
        const [, name, expression] = match;
        const array = /^array<\w+, \d+>\((.*)\)$/.exec(expression);
        if (array) {
            constants.push({ name, values: array[1].split(",").map((item) => Number(item.trim())), isArray: true });
        } else {
            constants.push({ name, values: [literalValue(expression.trim())], isArray: false });
        }
    }
    return constants;
}

/** `source` with its comments blanked out (line and column numbers kept). */
function withoutComments(source: string): string {
    return source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => comment.replace(/[^\n]/g, " "));
}

/** Where a shader writes out a header constant's value (or a run of an array's elements), one line each. */
function copiedConstants(file: string, source: string, constants: readonly HeaderConstant[]): string[] {
    const code = withoutComments(source);
    const lineOf = (index: number) => code.slice(0, index).split("\n").length;
    const findings: string[] = [];
    const scalars = constants.filter((constant) => !constant.isArray && Math.abs(constant.values[0]) >= SCALAR_THRESHOLD);
    for (const match of code.matchAll(LITERAL)) {
        const value = Math.abs(literalValue(match[0]));
        const names = scalars.filter((constant) => Math.abs(constant.values[0]) === value).map((constant) => constant.name);
        if (names.length > 0) {
            findings.push(`${file}:${lineOf(match.index!)}: ${match[0]} is the value of ${names.join(" / ")}`);
        }
    }
    // Runs of literals separated by commas, signs included: where a table would be written out.
    const signed = String.raw`-?\s*` + LITERAL.source;
    for (const run of code.matchAll(new RegExp(`${signed}(?:\\s*,\\s*${signed})+`, "g"))) {
        const values = Array.from(run[0].matchAll(new RegExp(signed, "g")), (item) => (item[0].startsWith("-") ? -1 : 1) * literalValue(item[0].replace(/^-\s*/, "")));
        for (const constant of constants.filter((candidate) => candidate.isArray)) {
            const length = Math.min(ARRAY_RUN, constant.values.length);
            for (let start = 0; start + length <= constant.values.length; start++) {
                const wanted = constant.values.slice(start, start + length).join(",");
                const found = values.some((_, at) => values.slice(at, at + length).join(",") === wanted);
                if (found) {
                    findings.push(`${file}:${lineOf(run.index!)}: writes out elements ${start}..${start + length - 1} of ${constant.name}`);
                    break;
                }
            }
        }
    }
    return findings;
}

describe("constants shared by TypeScript and WGSL", () => {
    const constants = headerConstants(shaderHeader());

    it("reads the generated header's constants", () => {
        const names = constants.map((constant) => constant.name);
        expect(names).toEqual(expect.arrayContaining(["FIXED_ONE", "GRADIENT_LIMIT", "BRUSH_ENTRY_INTS", "THERMAL_SLOTS", "QUARTER_COSINES", "THERMAL_DX"]));
        expect(constants.find((constant) => constant.name === "HEIGHT_MIN_FIXED")!.values).toEqual([-(2 ** 30)]);
        expect(constants.find((constant) => constant.name === "QUARTER_COSINES")!.values).toHaveLength(65);
        for (const constant of constants) {
            expect(constant.values.every(Number.isSafeInteger)).toBe(true);
        }
    });

    it("finds a value written out, in any spelling, and a table written out, but not a comment or a small value", () => {
        const planted = [
            "let a = px & 65536;", // FIXED_ONE
            "let b = clamp(g, -1073741824, 0x40000000i);", // GRADIENT_LIMIT, twice
            "let c = f32(65536.0) + 8.0;", // FIXED_ONE as a float; 8 is too small to tell
            "// 65536 in a comment is not code",
            "/* nor 1073741824 in a block comment */",
            "const T = array<i32, 4>(65536, 65516, 65457, 65358);", // the head of QUARTER_COSINES (and FIXED_ONE)
            "const D = array<i32, 8>(1, -1, 0, 0, 1, -1, 1, -1);", // THERMAL_DX
            "let d = vec4<i32>(0, 1, 2, 3);",
        ].join("\n");
        const findings = copiedConstants("planted.wgsl", planted, constants);
        expect(findings.filter((finding) => finding.startsWith("planted.wgsl:1:"))).toEqual(["planted.wgsl:1: 65536 is the value of FIXED_ONE"]);
        expect(findings.filter((finding) => finding.startsWith("planted.wgsl:2:"))).toHaveLength(2);
        expect(findings.filter((finding) => finding.startsWith("planted.wgsl:2:"))[0]).toMatch(/GRADIENT_LIMIT/);
        expect(findings.filter((finding) => finding.startsWith("planted.wgsl:3:"))).toEqual(["planted.wgsl:3: 65536.0 is the value of FIXED_ONE"]);
        expect(findings.filter((finding) => /^planted\.wgsl:[45]:/.test(finding))).toEqual([]);
        expect(findings).toContain("planted.wgsl:6: writes out elements 0..3 of QUARTER_COSINES");
        expect(findings).toContain("planted.wgsl:7: writes out elements 0..3 of THERMAL_DX");
        expect(findings.filter((finding) => finding.startsWith("planted.wgsl:8:"))).toEqual([]);
    });

    it("are written in no kernel: each uses the header's name", () => {
        const files = shaderPaths();
        expect(files.length).toBeGreaterThan(20);
        const findings = files.flatMap((path) => copiedConstants(path, readFileSync(path, "utf8"), constants));
        expect(findings).toEqual([]);
    });
});
