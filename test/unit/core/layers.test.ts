/**
 * The layering the style guide asks for: core imports nothing from Babylon; nothing in the plugin
 * imports the Inspector or React, so a user's bundle grows only by what they use.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

function sources(directory: string): string[] {
    return readdirSync(directory).flatMap((name) => {
        const path = join(directory, name);
        return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
    });
}

const importsOf = (file: string) => Array.from(readFileSync(file, "utf8").matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)|(?:^|\n)\s*import\s+"([^"]+)"/g)).map((match) => match[1] ?? match[2] ?? match[3]);

describe("module layers", () => {
    it("keeps plugin/core free of Babylon imports (it runs in Node, in a worker and in tests alone)", () => {
        for (const file of sources("plugin/core")) {
            for (const specifier of importsOf(file)) {
                expect(`${file}: ${specifier}`).not.toMatch(/@babylonjs|\.\.\/(component|gpu|terrain)\//);
            }
        }
    });

    it("never imports the Inspector or React from the plugin", () => {
        for (const file of sources("plugin")) {
            for (const specifier of importsOf(file)) {
                expect(`${file}: ${specifier}`).not.toMatch(/@babylonjs\/inspector|react/);
            }
        }
    });

    it("keeps the GPU backend from importing the component", () => {
        for (const file of sources("plugin/gpu")) {
            for (const specifier of importsOf(file)) {
                expect(`${file}: ${specifier}`).not.toMatch(/component\//);
            }
        }
    });
});
