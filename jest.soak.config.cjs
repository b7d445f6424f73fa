/**
 * `npm run test:soak`: the long runs kept out of `npm test` (10 000 cycles on the CPU reference,
 * long runs and a hundred attach/detach cycles on WebGPU), with the main suite's settings.
 */
const main = require("./jest.config.cjs");

module.exports = {
    ...main,
    roots: ["<rootDir>/test/soak"],
    testPathIgnorePatterns: ["/node_modules/"],
    testSequencer: undefined,
    testTimeout: 900000,
};
