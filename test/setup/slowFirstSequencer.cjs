/**
 * Runs the slowest suites first. Jest orders a run by each suite's time in its cache, which a clean
 * clone (CI) has not got: it then goes by file size, and the long browser suites, which are short
 * files, came last and ran on alone (jest 715 s in a clean clone against 593 s with a cache, two
 * workers on two cores, 2026-12-01). The list is the suites that took over 20 s alone, slowest
 * first; the rest keep jest's own order after them.
 */
const Sequencer = require("@jest/test-sequencer").default;

const SLOWEST_FIRST = [
    "browser/robustnessWebgpu",
    "unit/realism/realism",
    "browser/componentWebgpu",
    "unit/robustness/extremes",
    "browser/sampleScene",
    "browser/sampleWorld",
    "unit/water/waterState",
    "browser/waterSurface",
    "browser/packedPackage",
    "browser/materialPlugin",
    "browser/gpuParity",
    "unit/core/stability",
    "unit/component/stallsGpu",
];

function rank(path) {
    const normalised = path.replace(/\\/g, "/");
    const index = SLOWEST_FIRST.findIndex((name) => normalised.endsWith(`/test/${name}.test.ts`));
    return index < 0 ? SLOWEST_FIRST.length : index;
}

class SlowFirstSequencer extends Sequencer {
    async sort(tests) {
        const ordered = await super.sort(tests);
        // Array.prototype.sort is stable: the unlisted suites keep jest's order.
        return [...ordered].sort((a, b) => rank(a.path) - rank(b.path));
    }
}

module.exports = SlowFirstSequencer;
