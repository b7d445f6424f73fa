/**
 * The layering the style guide asks for: core imports nothing from Babylon; nothing in the plugin
 * imports the Inspector or React, so a user's bundle grows only by what they use; the plugin
 * imports nothing of the repository around it; the tests and the benchmarks do not import each
 * other (what both need lives in scripts/lib/); a test reaches the plugin through its public entry
 * and at most one internal module. The backends are peers: the CPU backend (plugin/cpu/) and the
 * GPU one (plugin/gpu/) stand on plugin/core/ and import neither each other's nor the component's
 * code, and the bake stands on them without the component. Neither the component nor the bake asks
 * which backend it holds (no `instanceof` of a backend's class, no backend's name compared with a
 * string): each backend presents itself. No module imports itself round a circle, in the plugin or
 * in the scripts, benchmarks, sample and tests around it. Core is only the model: nothing in
 * plugin/core/ imports a module outside it (the kernels, plugin/kernels/, stand on core; the CPU
 * runners are the CPU backend's, plugin/cpu/), and plugin/core/cpu/ (where the kernels were) stays empty.
 * A wing with a face (its index.ts: water, material, physics, bake, the CPU backend, the GPU backend,
 * the kernels, the terrain) is reached through it from the rest of the plugin; the bake reaches no
 * Babylon module through anything it imports (the GPU backend and the terrain wing are Babylon-free
 * behind their faces: Babylon's side of the GPU is the component's). The component reaches the input
 * log only through the run's history (`RunHistory`), which makes the log's decisions once for every backend.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

function sources(directory: string): string[] {
    return readdirSync(directory).flatMap((name) => {
        const path = join(directory, name);
        if (statSync(path).isDirectory()) {
            return name === "node_modules" || name.startsWith(".") ? [] : sources(path);
        }
        return /\.(ts|mjs)$/.test(path) ? [path] : [];
    });
}

const importsOf = (file: string) => Array.from(readFileSync(file, "utf8").matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)|(?:^|\n)\s*import\s+"([^"]+)"/g)).map((match) => match[1] ?? match[2] ?? match[3]);

describe("module layers", () => {

    it("never imports the Inspector or React from the plugin", () => {
        for (const file of sources("plugin")) {
            for (const specifier of importsOf(file)) {
                expect(`${file}: ${specifier}`).not.toMatch(/@babylonjs\/inspector|react/);
            }
        }
    });

    /** The repository file a relative import of `file` names (as the path of its .ts source from the root), or null for a package. */
    const target = (file: string, specifier: string) => (specifier.startsWith(".") ? relative(".", normalize(join(dirname(file), specifier))).replace(/\.js$/, ".ts") : null);
    const repositoryImports = (directory: string) => sources(directory).flatMap((file) => importsOf(file).map((specifier) => ({ file, specifier, path: target(file, specifier) })));

    it("keeps the plugin free of the repository around it (benchmarks, tests, scripts)", () => {
        const outward = repositoryImports("plugin").filter(({ path }) => path !== null && /^(bench|test|scripts|sample-scene)\//.test(path));
        expect(outward.map(({ file, specifier }) => `${file}: ${specifier}`)).toEqual([]);
    });

    it("keeps the tests and the benchmarks from importing each other, and their shared helpers from both", () => {
        const crossing = [
            ...repositoryImports("test").filter(({ path }) => path?.startsWith("bench/")),
            ...repositoryImports("bench").filter(({ path }) => path?.startsWith("test/")),
            ...repositoryImports("scripts/lib").filter(({ path }) => path?.startsWith("test/") || path?.startsWith("bench/")),
        ];
        expect(crossing.map(({ file, specifier }) => `${file}: ${specifier}`)).toEqual([]);
    });

    it("has each test reach the plugin through its public entries and at most one internal module", () => {
        // The package's entries (package.json exports: the main one, lockstep, terrain, advanced, material, physics, water), as sources.
        const exportsMap = JSON.parse(readFileSync("package.json", "utf8")).exports as Record<string, string | { import: string }>;
        const entries = new Set(Object.values(exportsMap).map((target) => (typeof target === "string" ? target : target.import).replace(/^\.\/dist\/esm\//, "plugin/").replace(/\.js$/, ".ts")));
        expect(entries).toContain("plugin/index.ts");
        const byFile = new Map<string, Set<string>>();
        for (const { file, path } of repositoryImports("test")) {
            if (path?.startsWith("plugin/") && !entries.has(path)) {
                byFile.set(file, (byFile.get(file) ?? new Set()).add(path));
            }
        }
        const scattered = [...byFile].filter(([, modules]) => modules.size > 1).map(([file, modules]) => `${file}: ${[...modules].join(", ")}`);
        expect(scattered).toEqual([]);
    });

    it("has the benchmarks and the scripts reach the plugin through the package's entries only", () => {
        const exportsMap = JSON.parse(readFileSync("package.json", "utf8")).exports as Record<string, string | { import: string }>;
        const entries = new Set(Object.values(exportsMap).map((target) => (typeof target === "string" ? target : target.import).replace(/^\.\/dist\/esm\//, "plugin/").replace(/\.js$/, ".ts")));
        // The bake's entry is the CLI package's (cli/, built from plugin/bake/index.ts).
        entries.add("plugin/bake/index.ts");
        const deep = [...repositoryImports("bench"), ...repositoryImports("scripts")].filter(({ path }) => path?.startsWith("plugin/") && !entries.has(path));
        expect(deep.map(({ file, specifier }) => `${file}: ${specifier}`)).toEqual([]);
    });

    it("keeps the runner free of behaviors: nothing it reaches imports a Babylon behavior or TerrainErosion", () => {
        // The worlds issue puts several grounds on one runner, so the runner must not need the behavior.
        const reached = new Set<string>();
        const visit = (file: string) => {
            if (reached.has(file)) return;
            reached.add(file);
            for (const specifier of importsOf(file)) {
                const path = target(file, specifier);
                if (path !== null) visit(path);
            }
        };
        visit("plugin/component/erosionRunner.ts");
        expect(reached.size).toBeGreaterThan(10);
        expect([...reached].filter((file) => /terrainErosion\.ts$|inspectables\.ts$/.test(file))).toEqual([]);
        const behaviorImports = [...reached].flatMap((file) => importsOf(file).filter((specifier) => /Behaviors\//.test(specifier)).map((specifier) => `${file}: ${specifier}`));
        expect(behaviorImports).toEqual([]);
    });

    /** The imports of the modules in `directory` that break its rule: a package matching `packages`, or a plugin folder in `folders`. */
    const forbidden = (directory: string, packages: RegExp | null, folders: string[]) =>
        repositoryImports(directory)
            .filter(({ specifier, path }) => (path === null ? packages !== null && packages.test(specifier) : folders.some((folder) => path.startsWith(`plugin/${folder}/`))))
            .map(({ file, specifier }) => `${file}: ${specifier}`);

    it("keeps plugin/core free of Babylon and of every layer above it (it runs in Node, in a worker and in tests alone)", () => {
        expect(forbidden("plugin/core", /@babylonjs/, ["component", "cpu", "gpu", "terrain", "bake", "material", "physics", "water", "analysis"])).toEqual([]);
    });

    it("keeps plugin/core to itself: no core module imports one outside plugin/core/ (kernels, backends, component, generated code)", () => {
        const leaving = repositoryImports("plugin/core").filter(({ path }) => path !== null && !path.startsWith("plugin/core/"));
        expect(leaving.map(({ file, specifier }) => `${file}: ${specifier}`)).toEqual([]);
    });

    it("leaves no file in plugin/core/cpu/ (the kernels' mirrors are plugin/kernels/, the CPU runners plugin/cpu/)", () => {
        // Files only: an emptied folder a checkout leaves behind holds nothing to import.
        const files = (directory: string): string[] =>
            readdirSync(directory).flatMap((name) => (statSync(join(directory, name)).isDirectory() ? files(join(directory, name)) : [join(directory, name)]));
        expect(existsSync("plugin/core/cpu") ? files("plugin/core/cpu") : []).toEqual([]);
    });

    it("keeps the kernels (plugin/kernels/) free of Babylon and of every layer above them: they stand on core alone", () => {
        expect(forbidden("plugin/kernels", /@babylonjs/, ["component", "cpu", "gpu", "terrain", "bake", "material", "physics", "water", "analysis"])).toEqual([]);
    });

    it("keeps the CPU backend and its pool free of Babylon, the component and the GPU backend", () => {
        expect(forbidden("plugin/cpu", /@babylonjs/, ["component", "gpu", "bake", "material", "physics", "water"])).toEqual([]);
    });

    it("keeps the GPU backend free of Babylon (its Babylon side is the component's) and of the component, the CPU backend and the CPU kernels", () => {
        // The limits both backends share live in core.
        expect(forbidden("plugin/gpu", /@babylonjs/, ["component", "cpu", "kernels", "bake", "material", "physics", "water"])).toEqual([]);
    });

    it("keeps the bake free of Babylon through everything it imports (the command line's bundle holds none)", () => {
        const reached = new Set<string>();
        const babylon: string[] = [];
        const visit = (file: string) => {
            if (reached.has(file) || !existsSync(file)) return;
            reached.add(file);
            for (const specifier of importsOf(file)) {
                const path = target(file, specifier);
                if (path !== null) visit(path);
                else if (/@babylonjs/.test(specifier)) babylon.push(`${file}: ${specifier}`);
            }
        };
        for (const file of sources("plugin/bake")) visit(file);
        expect([...reached].filter((file) => file.startsWith("plugin/gpu/") || file.startsWith("plugin/terrain/")).length).toBeGreaterThan(5);
        expect(babylon).toEqual([]);
    });

    it("keeps the bake from importing the component (it runs the backends without Babylon's behaviors)", () => {
        expect(forbidden("plugin/bake", null, ["component", "material", "physics", "water"])).toEqual([]);
    });

    it("has the component and the bake never ask which backend they hold (each backend presents itself: backendPresenter.ts)", () => {
        // A test of a backend's class, or of its name with a string, is a decision that belongs to the backend's presenter
        // (a behavior's name, `behavior.name === "TerrainErosion"`, is no backend's).
        const asking = /instanceof\s+(GpuScene|HeadlessGpu\w*)|backend\w*\??\.name\s*[!=]==?\s*["'`]|["'`]\s*[!=]==?\s*[\w.?]*backend\w*\??\.name\b/i;
        const asks = ["plugin/component", "plugin/bake"].flatMap((directory) =>
            sources(directory).flatMap((file) =>
                readFileSync(file, "utf8").split("\n").flatMap((line, index) => (asking.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []))
            )
        );
        expect(asks).toEqual([]);
    });

    it("has the rest of the plugin reach each wing with a face through it (plugin/<wing>/index.ts), the package's entries aside", () => {
        // The wings with a face. The faces of plugin/gpu/ and plugin/terrain/ are Babylon-free, so the bake may take them
        // (the test above): the terrain's grounds, which need Babylon, are the package entries' to export.
        const wings = ["water", "material", "physics", "bake", "cpu", "kernels", "gpu", "terrain"];
        expect(wings.filter((wing) => !existsSync(`plugin/${wing}/index.ts`))).toEqual([]);
        const past = repositoryImports("plugin").filter(({ file, path }) => {
            const wing = wings.find((name) => path?.startsWith(`plugin/${name}/`));
            // The package's entries (plugin/*.ts: index, lockstep, terrain, advanced, internal, umd) are faces themselves.
            return wing !== undefined && dirname(file) !== "plugin" && !file.startsWith(`plugin/${wing}/`) && path !== `plugin/${wing}/index.ts`;
        });
        expect(past.map(({ file, specifier }) => `${file}: ${specifier}`)).toEqual([]);
    });

    it("has the component talk to the run's history (RunHistory), never to the schedule's input log itself", () => {
        // The rules of undo, redo, reset, restore and give are the history's plans (plugin/core/inputLog/history.ts), made once
        // for the CPU reference and the runner: a component module that reached the log could make a rule of its own.
        const reaching = /\binputs\s*\??\.\s*log\b|\blog\s*\}\s*=\s*[\w.?]*\binputs\b|\bStampedInputs\b|\bInputLog\b/;
        const reaches = sources("plugin/component").flatMap((file) =>
            readFileSync(file, "utf8").split("\n").flatMap((line, index) => (reaching.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []))
        );
        expect(reaches).toEqual([]);
    });

    it.each(["plugin", "scripts", "bench", "sample-scene", "test"])("has no import circle in %s/, type imports included", (root) => {
        const graph = new Map<string, string[]>();
        for (const { file, path } of repositoryImports(root)) {
            if (!graph.has(file)) graph.set(file, []);
            if (path?.startsWith(`${root}/`)) graph.get(file)?.push(path);
        }
        // Depth-first search; a module met again while it is still on the path closes a circle.
        const circles: string[] = [];
        const state = new Map<string, "open" | "done">();
        const path: string[] = [];
        const visit = (file: string) => {
            if (state.get(file) === "done") return;
            if (state.get(file) === "open") {
                circles.push([...path.slice(path.indexOf(file)), file].join(" -> "));
                return;
            }
            state.set(file, "open");
            path.push(file);
            for (const next of graph.get(file) ?? []) visit(next);
            path.pop();
            state.set(file, "done");
        };
        for (const file of graph.keys()) visit(file);
        expect(circles).toEqual([]);
    });
});
