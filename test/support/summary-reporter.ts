import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends a run with one plain line, `N passed, N failed, N skipped`, that CI can read in any tool; before it, the tests
 * that passed only on a retry (real-terminal groups retry once), named, so a flaky test or one that fails its first
 * try every time is seen, not hidden by its retry.
 */
export default class SummaryReporter implements Reporter {
	onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
		const counts = { passed: 0, failed: 0, skipped: 0 };
		const retried: string[] = [];
		for (const module of modules) {
			for (const test of module.children.allTests()) {
				const state = test.result().state;
				if (state === "passed") counts.passed++;
				else if (state === "failed") counts.failed++;
				else counts.skipped++;
				if (state === "passed" && (test.diagnostic()?.retryCount ?? 0) > 0) {
					retried.push(`${module.moduleId.split("/").pop()} > ${test.name}`);
				}
			}
		}
		for (const name of retried) process.stdout.write(`\npassed on a retry: ${name}`);
		process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
	}
}
