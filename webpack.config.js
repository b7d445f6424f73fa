// Builds, selected with --env:
//   sample      the sample scene (sample-scene/) -> dist/sample, also served by `npm start`
//   umd         the plugin as a UMD bundle with the global TERRAIN_EROSION, over Babylon's UMD global BABYLON
//   testpages   the pages the browser tests load (test/browser/pages/) -> test-results/pages
//   testsample  the sample for the tests -> test-results/sample
// Each output records what it was built from (scripts/lib/buildStamp.mjs), so npm test builds only
// what is not current; `--env mixed` builds each in its own mode (scripts/test.mjs).
//   benchpages  the Chromium benchmark page (bench/pages/) -> bench/.build/pages (scripts/bench.mjs)
// The ESM library itself is built by tsc (npm run build:lib), which keeps one file per module.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readdirSync } from "node:fs";
import HtmlWebpackPlugin from "html-webpack-plugin";
import { BuildStampPlugin } from "./scripts/lib/buildStamp.mjs";
import TerserPlugin from "terser-webpack-plugin";

const root = dirname(fileURLToPath(import.meta.url));

const typescriptRules = [{ test: /\.ts$/, loader: "ts-loader", options: { transpileOnly: true, configFile: resolve(root, "tsconfig.json"), compilerOptions: { noEmit: false } } }];
// esbuild minifies the sample's lazily loaded Inspector chunk in seconds where terser took minutes on 2 cores.
const optimization = { minimizer: [new TerserPlugin({ minify: TerserPlugin.esbuildMinify, terserOptions: { target: "es2020" } })] };
const resolveTs = { extensions: [".ts", ".js"], extensionAlias: { ".js": [".ts", ".js"] } };

function sampleConfig(mode) {
    return {
        name: "sample",
        mode,
        entry: { sample: resolve(root, "sample-scene/main.ts") },
        output: { path: resolve(root, "dist/sample"), filename: "[name].js", chunkFilename: "[name].[contenthash:8].js", clean: true },
        module: { rules: typescriptRules },
        resolve: resolveTs,
        devtool: mode === "development" ? "eval-cheap-module-source-map" : "source-map",
        performance: { hints: false },
        optimization,
        plugins: [new HtmlWebpackPlugin({ template: resolve(root, "sample-scene/index.html") }), new BuildStampPlugin(root, "sample")],
        // Cross-origin isolated (COOP/COEP), so the CPU backend's worker pool shares memory (SharedArrayBuffer).
        devServer: { host: "127.0.0.1", port: 8080, headers: { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" }, static: [{ directory: resolve(root, "sample-scene/public"), publicPath: "/" }], client: { overlay: { warnings: false } } },
    };
}

/** The UMD build's modules that its source map neither names nor embeds (umdConfig says why). */
const UNMAPPED_UMD_SOURCES = /[\\/]plugin[\\/](generated|kernels)[\\/].*\.ts$/;

function umdConfig(mode) {
    return {
        name: "umd",
        mode,
        entry: resolve(root, "plugin/umd.ts"),
        output: { path: resolve(root, "dist/umd"), filename: "terrain-erosion.umd.js", library: { name: "TERRAIN_EROSION", type: "umd" }, globalObject: "globalThis" },
        // The generated modules (shader strings, the worker bundle) stay out of the map (noSourceMapLoader.cjs),
        // and so do the CPU kernels (plugin/kernels/): a page runs them in the worker, whose bundle has
        // no map, and this bundle only where a page has no workers (156 KB of the map's sources).
        // The rest go through stripCommentsLoader.cjs first: the map embeds their code without its comments.
        module: { rules: [{ test: UNMAPPED_UMD_SOURCES, use: [resolve(root, "scripts/lib/noSourceMapLoader.cjs"), { loader: typescriptRules[0].loader, options: typescriptRules[0].options }] }, { test: /\.ts$/, exclude: UNMAPPED_UMD_SOURCES, use: [{ loader: typescriptRules[0].loader, options: typescriptRules[0].options }, resolve(root, "scripts/lib/stripCommentsLoader.cjs")] }] },
        resolve: resolveTs,
        // Every @babylonjs/core import resolves to Babylon's UMD global, as the Playground provides it.
        externals: [({ request }, callback) => (request && request.startsWith("@babylonjs/core") ? callback(null, { root: "BABYLON", commonjs: request, commonjs2: request, amd: request }) : callback())],
        // The map is written beside the bundle for debugging here, but the bundle does not name it and
        // the package leaves it out (package.json "files"): 0.9 MB that an ES-module game never loads.
        devtool: "hidden-source-map",
        performance: { hints: false },
        optimization,
        plugins: [new BuildStampPlugin(root, "umd")],
    };
}

/** One HTML page per `.ts` file of `pagesDir`, into `outputDir`. */
function pagesConfig(name, pagesDir, outputDir, mode) {
    const entries = Object.fromEntries(
        readdirSync(resolve(root, pagesDir))
            .filter((file) => file.endsWith(".ts"))
            .map((file) => [file.replace(/\.ts$/, ""), resolve(root, pagesDir, file)])
    );
    return {
        name,
        mode,
        entry: entries,
        output: { path: resolve(root, outputDir), filename: "[name].js", clean: true },
        module: { rules: typescriptRules },
        resolve: resolveTs,
        devtool: false,
        performance: { hints: false },
        plugins: [...Object.keys(entries).map((page) => new HtmlWebpackPlugin({ filename: `${page}.html`, chunks: [page], title: page })), ...(name === "testpages" ? [new BuildStampPlugin(root, "testpages")] : [])],
    };
}

export default (env = {}, argv = {}) => {
    const mode = argv.mode ?? "production";
    const builders = {
        sample: sampleConfig,
        umd: umdConfig,
        testpages: (buildMode) => pagesConfig("testpages", "test/browser/pages", "test-results/pages", buildMode),
        benchpages: (buildMode) => pagesConfig("benchpages", "bench/pages", "bench/.build/pages", buildMode),
        // The sample for the tests: development mode (fast) into test-results/sample.
        testsample: (buildMode) => ({ ...sampleConfig(buildMode), name: "testsample", output: { ...sampleConfig(buildMode).output, path: resolve(root, "test-results/sample") } }),
    };
    const selected = Object.keys(builders).filter((name) => env[name]);
    // `--env mixed` (scripts/test.mjs): each build in its own mode, the test builds in development,
    // the UMD bundle as shipped; the compilers run side by side in one webpack process.
    const modeOf = (name) => (env.mixed ? (name === "umd" || name === "sample" ? "production" : "development") : mode);
    return (selected.length > 0 ? selected : ["sample", "umd"]).map((name) => builders[name](modeOf(name)));
};
