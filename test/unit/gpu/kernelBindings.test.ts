/**
 * Each kernel's binding declarations come from its row of KERNELS, generated as its WGSL is
 * assembled: no file in shaders/ declares a binding, and every kernel's source declares each buffer
 * it binds once, `read_write` exactly where its row says it writes the buffer (or adds to it with
 * atomics), under the number BINDINGS gives it (the other's, for the two a `swapped` kernel
 * exchanges).
 */
import { readFileSync } from "node:fs";
import { BINDINGS, kernelSource, KERNELS, type KernelName, type KernelSpec } from "../../../plugin/advanced.js";
import { shaderPaths } from "../../helpers/shaderFiles.js";

const kernels = Object.keys(KERNELS) as KernelName[];

/** The storage and texture declarations of a kernel's assembled source: variable to binding number, access and type. */
function declarations(kernel: KernelName): Map<string, { binding: number; space: string; type: string }> {
    const found = new Map<string, { binding: number; space: string; type: string }>();
    for (const match of kernelSource(kernel).matchAll(/@group\(0\) @binding\((\d+)\) var(<[^>]*>)? (\w+): ([^;]+);/g)) {
        expect(found.has(match[3])).toBe(false);
        found.set(match[3], { binding: Number(match[1]), space: match[2] ?? "", type: match[4] });
    }
    return found;
}

describe("kernel bindings", () => {
    it("are declared by no file in shaders/ (the table is their one source)", () => {
        const paths = shaderPaths();
        expect(paths.length).toBeGreaterThan(20);
        const declaring = paths.filter((path) => /@binding\(/.test(readFileSync(path, "utf8")));
        expect(declaring).toEqual([]);
    });

    it.each(kernels)("of %s are each declared once, as the table says", (kernel) => {
        const spec: KernelSpec = KERNELS[kernel];
        const found = declarations(kernel);
        const bound = [...spec.bindings, ...(spec.texture ? [spec.texture] : [])];
        expect(found.size).toBe(bound.length);
        for (const name of bound) {
            const declared = found.get(name === "params" ? "batchParams" : spec.names?.[name] ?? name);
            expect(declared).toBeDefined();
            const swapped = spec.swapped?.includes(name) ? spec.swapped.find((other) => other !== name)! : name;
            expect(declared!.binding).toBe(BINDINGS[swapped]);
            if (declared!.space.startsWith("<storage")) {
                const writes = spec.writes.includes(name) || (spec.atomics?.includes(name) ?? false) || name === "counters";
                expect(declared!.space).toBe(writes ? "<storage, read_write>" : "<storage, read>");
                expect(declared!.type.includes("atomic<")).toBe((spec.atomics?.includes(name) ?? false) || name === "counters");
            }
        }
        expect(spec.bindings.includes("counters")).toBe(spec.counters);
    });

    it("say per kernel how one buffer is declared", () => {
        expect(declarations("region_checksums_materials").get("material")?.space).toBe("<storage, read>");
        expect(declarations("init_soil").get("material")?.space).toBe("<storage, read_write>");
        expect(declarations("erode_droplets").get("delta")?.type).toBe("array<atomic<i32>>");
        expect(declarations("clip_delta").get("delta")?.type).toBe("array<i32>");
        expect(kernelSource("apply_delta")).toContain("// Bindings generated from KERNELS (plugin/gpu/kernelTable.ts).");
    });
});
