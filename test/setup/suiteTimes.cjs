/**
 * Prints every suite's time at the end of a run, slowest first, so the next change sees what it
 * cost; suites over the budget (90 s, issue 34) are marked. The run's own summary comes from jest's
 * default reporter, before this.
 */
const SUITE_BUDGET_S = 90;

class SuiteTimesReporter {
    onRunComplete(_contexts, results) {
        const root = process.cwd().replace(/\\/g, "/") + "/";
        const suites = results.testResults
            .map((suite) => ({ path: suite.testFilePath.replace(/\\/g, "/").replace(root, ""), seconds: (suite.perfStats.end - suite.perfStats.start) / 1000, failed: suite.numFailingTests > 0 || Boolean(suite.testExecError) }))
            .sort((a, b) => b.seconds - a.seconds);
        if (suites.length === 0) return;
        const total = suites.reduce((sum, suite) => sum + suite.seconds, 0);
        const lines = [`Suite times (${suites.length} suites, ${total.toFixed(0)} s of worker time, ${((Date.now() - results.startTime) / 1000).toFixed(0)} s wall):`];
        for (const suite of suites) {
            const marks = [suite.seconds > SUITE_BUDGET_S ? `over the ${SUITE_BUDGET_S} s budget` : "", suite.failed ? "failed" : ""].filter(Boolean).join(", ");
            lines.push(`${suite.seconds.toFixed(1).padStart(7)} s  ${suite.path}${marks ? `  (${marks})` : ""}`);
        }
        process.stderr.write(`\n${lines.join("\n")}\n`);
    }
}

module.exports = SuiteTimesReporter;
