import type { Reporter, TestModule } from "vitest/node";

/** Ends a run with one plain line, `N passed, N failed, N skipped`, that CI can read in any tool. */
export default class SummaryReporter implements Reporter {
	onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
		const counts = { passed: 0, failed: 0, skipped: 0 };
		for (const module of modules) {
			for (const test of module.children.allTests()) {
				const state = test.result().state;
				if (state === "passed") counts.passed++;
				else if (state === "failed") counts.failed++;
				else counts.skipped++;
			}
		}
		process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
	}
}
