/**
 * Jest runs TypeScript (ours) and Babylon's ES modules through SWC, which is fast enough to
 * transform the parts of @babylonjs/core the NullEngine tests import on every run.
 */
const { availableParallelism } = require("node:os");

const swc = ["@swc/jest", { jsc: { parser: { syntax: "typescript" }, target: "es2020" }, module: { type: "commonjs" } }];

module.exports = {
    testEnvironment: "node",
    roots: ["<rootDir>/test"],
    testMatch: ["**/*.test.ts"],
    // The soak runs (10 000 cycles, long WebGPU runs) are `npm run test:soak` (jest.soak.config.cjs).
    testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/soak/"],
    transform: { "^.+\\.(t|j)sx?$": swc },
    // The ES-module-only packages the tests import (the bake formats: parse-exr, three.js, tiff, fast-png and theirs) go through SWC too.
    transformIgnorePatterns: ["/node_modules/(?!(@babylonjs|parse-exr|three|tiff|fast-png|fflate|iobuffer|quick-lru|xml-utils|zstddec|lerc|@petamoriken)/)"],
    // three.js's CommonJS build warns that it is deprecated: the tests take its ES module (through SWC).
    moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1", "^three$": "<rootDir>/node_modules/three/build/three.module.js" },
    // Two suites share two cores (below), so a test can take twice its time alone: the realism
    // suite's largest claim took 49 s alone.
    testTimeout: 300000,
    // At least two suites at once, even on two cores (jest's default there is one): most suites
    // wait on headless Chromium or on worker threads much of the time. On CI's two cores the whole
    // suite took 842 s one at a time and 593 s two at a time (2026-12-01).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testSequencer: "<rootDir>/test/setup/slowFirstSequencer.cjs",
    setupFiles: ["<rootDir>/test/setup/quietBabylon.ts"],
    // One headless Chromium per worker for the whole run (test/setup/browserServers.ts).
    globalSetup: "<rootDir>/test/setup/browserServers.ts",
    globalTeardown: "<rootDir>/test/setup/browserServersTeardown.ts",
    setupFilesAfterEnv: ["<rootDir>/test/setup/browserConnection.ts"],
    // Each suite's time at the end of the run (test/setup/suiteTimes.cjs).
    reporters: ["default", "<rootDir>/test/setup/suiteTimes.cjs"],
    // How long jest waits for a worker to exit after its last suite before it kills it and warns
    // ("failed to exit gracefully"). The one leak that held a worker open (esbuild's buildSync
    // worker thread and service process, in test/unit/bench/cpuWorkers.test.ts) is gone; measured
    // after that (2026-12-02), a worker's "exit" event fires 1-2 ms after jest's end message with
    // no handle, timer or worker thread left, but the process then takes 0.27-0.55 s to free a
    // heap of a whole run's modules and fields, just over jest's 0.5 s default.
    workerGracefulExitTimeout: 3000,
};
