import { describe, expect, it } from "vitest";
import type { Usage } from "../src/llm/types.js";
import { formatCost, formatSent, formatTotalsCost, formatUsage, inputTokens } from "../src/view/format.js";

const usage = (over: Partial<Usage> = {}): Usage => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...over });

describe("one cost format", () => {
	it("shows dollars with the precision the amount needs, never $0 for a tiny billed amount", () => {
		expect([null, 0, 0.0042, 0.042, 3.5].map((c) => formatCost(c))).toEqual([
			"unknown",
			"$0.00",
			"$0.0042",
			"$0.042",
			"$3.50",
		]);
		// 12 output tokens of a cheap model: billed, so not "$0.0000".
		expect(formatCost(0.0000048)).toBe("<$0.0001");
		expect(formatCost(0.00006)).toBe("$0.0001");
	});

	it("marks an estimate with ~ and never marks an unknown price", () => {
		expect(formatCost(0.0123, true)).toBe("~$0.012");
		expect(formatCost(null, true)).toBe("unknown");
		expect(formatTotalsCost({ usage: usage({ output: 9, estimated: true }), costUsd: 0.5 })).toBe("~$0.500");
		expect(formatTotalsCost({ usage: usage({ output: 9 }), costUsd: 0.5 })).toBe("$0.500");
	});
});

describe("one meaning of ↑", () => {
	it("counts every token sent: uncached input, cache reads and cache writes", () => {
		const u = usage({ input: 200, output: 950, cacheRead: 12_000, cacheWrite: 200 });
		expect(inputTokens(u)).toBe(12_400);
		expect(formatSent(u)).toBe("↑12.4k");
		expect(formatUsage(u)).toBe("↑12.4k ↓950");
	});

	it("marks estimated figures with ~", () => {
		expect(formatUsage(usage({ input: 1200, output: 40, estimated: true }))).toBe("↑~1.2k ↓~40");
	});
});
