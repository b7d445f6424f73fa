/**
 * Jest runs TypeScript (ours) and Babylon's ES modules through SWC, which is fast enough to
 * transform the parts of @babylonjs/core the NullEngine tests import on every run.
 */
const swc = ["@swc/jest", { jsc: { parser: { syntax: "typescript" }, target: "es2020" }, module: { type: "commonjs" } }];

module.exports = {
    testEnvironment: "node",
    roots: ["<rootDir>/test"],
    testMatch: ["**/*.test.ts"],
    transform: { "^.+\\.(t|j)sx?$": swc },
    transformIgnorePatterns: ["/node_modules/(?!@babylonjs/)"],
    moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
    testTimeout: 120000,
    setupFiles: ["<rootDir>/test/setup/quietBabylon.ts"],
};
