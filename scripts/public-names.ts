// Counts the public names: each package entry's exports (package.json `exports`, as sources) and the
// public members of the behaviors (TerrainErosion, TerrainErosionWorld) and their facets. What issue
// 59's "about 40 members, about 60 names" is measured with: `npx tsx scripts/public-names.ts [--list]`.
import ts from "typescript";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const list = process.argv.includes("--list");
const exportsMap = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).exports as Record<string, string | { import: string }>;
const entries = Object.entries(exportsMap)
    .filter(([, target]) => typeof target !== "string" && target.import.startsWith("./dist/esm/"))
    .map(([name, target]) => [name, join(ROOT, (target as { import: string }).import.replace(/^\.\/dist\/esm\//, "plugin/").replace(/\.js$/, ".ts"))] as const);
const CLASSES = [
    ["component/terrainErosion.ts", "TerrainErosion"],
    ["component/terrainErosionWorld.ts", "TerrainErosionWorld"],
    ["component/facets/editsFacet.ts", "EditsFacet"],
    ["component/facets/historyFacet.ts", "HistoryFacet"],
    ["component/facets/lockstepFacet.ts", "LockstepFacet"],
    ["component/facets/mapsFacet.ts", "MapsFacet"],
] as const;

const program = ts.createProgram([...entries.map(([, file]) => file), ...CLASSES.map(([file]) => join(ROOT, "plugin", file))], {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, skipLibCheck: true, types: [],
});
const checker = program.getTypeChecker();
const exportsOf = (file: string) => checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!);

for (const [name, file] of entries) {
    const names = exportsOf(file).map((symbol) => symbol.name);
    console.log(`entry ${name}: ${names.length}${list ? `\n  ${names.join(" ")}` : ""}`);
}
for (const [file, name] of CLASSES) {
    const symbol = exportsOf(join(ROOT, "plugin", file)).find((candidate) => candidate.name === name)!;
    // Private and protected members, and those named with an underscore, are not the class's public face.
    const members = checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol)).filter((member) => {
        const declaration = member.valueDeclaration ?? member.declarations?.[0];
        const flags = declaration ? ts.getCombinedModifierFlags(declaration) : 0;
        return !(flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) && !member.name.startsWith("_");
    });
    console.log(`${name}: ${members.length} public members${list ? `\n  ${members.map((member) => member.name).join(" ")}` : ""}`);
}
