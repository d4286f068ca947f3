import { defineConfig } from "vitest/config";
import SummaryReporter from "./test/support/summary-reporter.js";

export default defineConfig({
	test: {
		include: ["test/**/*.test.{ts,tsx}"],
		environment: "node",
		reporters: ["default", new SummaryReporter()],
		env: { FORCE_COLOR: "0" },
		// Most test time is spent waiting on child processes, tmux and sockets, not on the CPU: four files at a time
		// halve the suite on a 2-core machine (vitest's default there is one).
		maxWorkers: 4,
		testTimeout: 20_000,
		hookTimeout: 20_000,
	},
});
