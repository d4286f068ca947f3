import { defineConfig } from "vitest/config";
import SummaryReporter from "./test/support/summary-reporter.js";

export default defineConfig({
	test: {
		include: ["test/**/*.test.{ts,tsx}"],
		environment: "node",
		reporters: ["default", new SummaryReporter()],
		env: { FORCE_COLOR: "0" },
		testTimeout: 20_000,
		hookTimeout: 20_000,
	},
});
