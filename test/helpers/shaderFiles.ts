/**
 * The WGSL files of shaders/, grouped in folders by wing (shaders/fold/, shaders/rivers/, ...): a
 * kernel names its file by its name alone (`kernelFile`), as scripts/inline-shaders.mjs keys them.
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";

/** Every .wgsl file under shaders/, as a path from the repository's root (`shaders/fold/clip_delta.wgsl`), in order. */
export function shaderPaths(directory = "shaders"): string[] {
    return readdirSync(directory, { withFileTypes: true })
        .flatMap((entry) => (entry.isDirectory() ? shaderPaths(join(directory, entry.name)) : entry.name.endsWith(".wgsl") ? [join(directory, entry.name)] : []))
        .sort();
}

/** The path of the shader file named `name` (without `.wgsl`, in whichever folder), or null where none is. */
export function shaderPath(name: string): string | null {
    return shaderPaths().find((path) => basename(path, ".wgsl") === name) ?? null;
}
