import { describe, expect, it } from "vitest";
import { baseModelId, contextWindowOf, costUsd, defaultModel, findModel, MODELS, vendorOf } from "../src/llm/models.js";

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({
	input,
	output,
	cacheRead,
	cacheWrite,
});

describe("vendorOf", () => {
	it("knows a model's vendor from the table, or from its family's name for a model newer than the table", () => {
		expect(vendorOf("gpt-4.1")).toBe("openai");
		expect(vendorOf("claude-sonnet-4-5-20250929")).toBe("anthropic");
		expect(vendorOf("claude-next-9")).toBe("anthropic");
		expect(vendorOf("gpt-7")).toBe("openai");
		expect(vendorOf("o7-mini")).toBe("openai");
		expect(vendorOf("anthropic/claude-sonnet-4.5")).toBe("anthropic");
		expect(vendorOf("qwen3-coder")).toBeUndefined();
		expect(vendorOf("openchat")).toBeUndefined();
	});
});

describe("findModel", () => {
	it("finds exact ids of both providers", () => {
		expect(findModel("claude-sonnet-4-5")?.provider).toBe("anthropic");
		expect(findModel("gpt-4.1")?.provider).toBe("openai");
		expect(findModel("o4-mini")?.reasoning).toBe(true);
	});

	it("tolerates dated snapshots, provider prefixes, dotted versions and tags", () => {
		expect(findModel("claude-sonnet-4-5-20250929")?.id).toBe("claude-sonnet-4-5");
		expect(findModel("claude-haiku-4-5-20251001")?.id).toBe("claude-haiku-4-5");
		expect(findModel("anthropic/claude-opus-4-1")?.id).toBe("claude-opus-4-1");
		expect(findModel("anthropic/claude-sonnet-4.5")?.id).toBe("claude-sonnet-4-5");
		expect(findModel("claude-opus-4-20250514")?.id).toBe("claude-opus-4-0");
		expect(findModel("claude-sonnet-5[1m]")?.id).toBe("claude-sonnet-5");
		expect(findModel("openai/gpt-4o-2024-08-06")?.id).toBe("gpt-4o");
		expect(findModel("GPT-5.4-mini")?.id).toBe("gpt-5.4-mini");
	});

	it("returns undefined for unknown models", () => {
		expect(findModel("llama3.1:8b")).toBeUndefined();
		expect(findModel("claude-opus-9")).toBeUndefined();
		expect(baseModelId("qwen/qwen3-coder")).toBe("qwen3-coder");
	});

	it("has a sane, unique table", () => {
		const ids = MODELS.map((m) => m.id);
		expect(new Set(ids).size).toBe(ids.length);
		for (const m of MODELS) {
			expect(m.maxOutput).toBeLessThanOrEqual(m.contextWindow);
			if (m.provider === "anthropic") expect(m.anthropicThinking).toBeDefined();
			if (m.pricing) expect(m.pricing.output).toBeGreaterThan(m.pricing.input);
		}
	});
});

describe("costUsd", () => {
	it("prices input, output and both cache directions", () => {
		// claude-sonnet-4-5: $3 in, $15 out, $0.30 cache read, $3.75 cache write per MTok.
		expect(costUsd("claude-sonnet-4-5", usage(1_000_000, 0))).toBeCloseTo(3);
		expect(costUsd("claude-sonnet-4-5", usage(0, 1_000_000))).toBeCloseTo(15);
		expect(costUsd("claude-sonnet-4-5-20250929", usage(1000, 500, 10_000, 2000))).toBeCloseTo(
			(1000 * 3 + 500 * 15 + 10_000 * 0.3 + 2000 * 3.75) / 1e6,
		);
		expect(costUsd("gpt-4o", usage(2_000_000, 1_000_000, 1_000_000))).toBeCloseTo(2 * 2.5 + 10 + 1.25);
	});

	it("is null, never 0, for an unknown price", () => {
		expect(costUsd("my-local-model", usage(100, 100))).toBeNull();
		expect(costUsd("claude-fable-5-2", usage(100, 100))).toBeNull();
		expect(costUsd("gpt-5.4", usage(0, 0))).toBe(0);
	});
});

describe("defaults", () => {
	it("has a known default model per provider", () => {
		expect(findModel(defaultModel("anthropic"))?.provider).toBe("anthropic");
		expect(findModel(defaultModel("openai"))?.provider).toBe("openai");
	});

	it("gives context windows with a fallback for unknown models", () => {
		expect(contextWindowOf("claude-haiku-4-5")).toBe(200_000);
		expect(contextWindowOf("gpt-5.5")).toBe(1_050_000);
		expect(contextWindowOf("mystery")).toBe(128_000);
		expect(contextWindowOf("mystery", 32_768)).toBe(32_768);
	});
});
