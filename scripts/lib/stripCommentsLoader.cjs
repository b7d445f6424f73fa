// A webpack loader for the UMD build: the module's TypeScript printed again by esbuild without its
// comments (and types) before ts-loader compiles it, so the bundle's source map embeds the code
// without the TSDoc (which the ESM build's declarations keep). Its sources were 900 KB, most of
// them comments, and the package is held under 3 MB. Class fields keep TypeScript's semantics at
// the project's target (assigned in the constructor, not defined).
const { transformSync } = require("esbuild");

module.exports = function stripComments(source) {
    const { code } = transformSync(source, { loader: "ts", format: "esm", target: "es2020", legalComments: "none", sourcefile: this.resourcePath, tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } } });
    this.callback(null, code);
};
