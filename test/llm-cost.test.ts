// Cost that is true for every server: the cost a provider reports (OpenRouter's usage.cost) wins over any price
// table; [providers.NAME.prices] (or a profile's) prices a model gar does not know; a model without a price is
// "unknown" from the first frame and stays so, and one the config prices shows $0.00 before its first reply.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import type { AgentEvent } from "../src/agent/events.js";
import { Agent } from "../src/agent/loop.js";
import { loadConfig } from "../src/config/index.js";
import { costUsd } from "../src/llm/models.js";
import { createOpenAIProvider } from "../src/llm/openai.js";
import { reduce } from "../src/view/reducer.js";
import { initialView } from "../src/view/state.js";
import { runGar, tempHome } from "./support/cli.js";
import { collect, startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const usage = { input: 2000, output: 100, cacheRead: 1000 };

async function run(model: string, prices?: { input: number; output: number; cacheRead: number; cacheWrite: number }) {
	const provider = createOpenAIProvider({ apiKey: "k", baseURL: `${server?.url}/v1` });
	const channel = new EventChannel();
	const events: AgentEvent[] = [];
	channel.subscribe((e) => events.push(e));
	const agent = new Agent({
		provider,
		model,
		system: { text: "", parts: [] },
		tools: [],
		channel,
		...(prices ? { prices } : {}),
	});
	const result = await agent.run("go");
	return { result, events };
}

describe("the cost of a reply", () => {
	it("is the one the provider reported (OpenRouter's usage.cost), for a model gar prices and one it does not", async () => {
		server = await startWireServer([
			{ text: "a", usage, quirks: { usageCost: 0.00123 } },
			{ text: "b", usage, quirks: { usageCost: 0.0004 } },
		]);
		const { message } = await collect(createOpenAIProvider({ apiKey: "k", baseURL: `${server.url}/v1` }), {
			model: "anthropic/claude-sonnet-4.5",
		});
		expect(message.reportedCostUsd).toBe(0.00123);
		const unknown = await run("qwen/qwen3-coder");
		const end = unknown.events.find((e) => e.type === "message_end");
		expect(end?.type === "message_end" && end.costUsd).toBe(0.0004);
		expect(unknown.result.costUsd).toBe(0.0004);
	});

	it("of a model gar does not know is priced by the config, or unknown; never a made-up 0", async () => {
		server = await startWireServer([
			{ text: "a", usage },
			{ text: "b", usage },
		]);
		const prices = { input: 0.5, output: 1.5, cacheRead: 0.05, cacheWrite: 0.5 };
		const priced = await run("local-model", prices);
		const expected = (2000 * 0.5 + 100 * 1.5 + 1000 * 0.05) / 1e6;
		expect(priced.result.costUsd).toBeCloseTo(expected, 12);
		expect(costUsd("local-model", { ...usage, cacheWrite: 0 }, prices)).toBeCloseTo(expected, 12);
		// The config's prices never replace gar's table for a model it knows.
		expect(costUsd("gpt-5.4", { ...usage, cacheWrite: 0 }, prices)).toBe(
			costUsd("gpt-5.4", { ...usage, cacheWrite: 0 }),
		);
		const start = priced.events.find((e) => e.type === "agent_start");
		expect(start?.type === "agent_start" && start.priced).toBe(true);
		const unpriced = await run("local-model");
		expect(unpriced.result.costUsd).toBeNull();
	});

	it("shows $0.00 before the first reply of a model the config prices, and unknown for one without a price", () => {
		const start = (priced?: boolean): AgentEvent => ({
			type: "agent_start",
			runId: "r",
			provider: "openai",
			model: "local-model",
			maxTurns: 5,
			contextWindow: null,
			...(priced ? { priced } : {}),
		});
		expect(initialView({ provider: "openai", model: "local-model", priced: true }).session.costUsd).toBe(0);
		expect(initialView({ provider: "openai", model: "local-model" }).session.costUsd).toBeNull();
		expect(reduce(initialView({ provider: "openai", model: "" }), start(true), 0).session.costUsd).toBe(0);
		expect(reduce(initialView({ provider: "openai", model: "" }), start(), 0).session.costUsd).toBeNull();
	});

	it("of a model without a price is the one each reply reports: the unknown price is no unknown bill", () => {
		const end = (costUsd: number | null): AgentEvent => ({
			type: "message_end",
			requestId: "r.1",
			turn: 1,
			message: {
				role: "assistant",
				content: [],
				provider: "openai",
				model: "local-model",
				usage: { input: 10, output: 1, cacheRead: 0, cacheWrite: 0 },
				stopReason: "stop",
			},
			costUsd,
			timing: { startedAt: 0, firstTokenMs: null, durationMs: 1 },
			retries: 0,
		});
		let view = initialView({ provider: "openai", model: "local-model" });
		expect(view.session.costUsd).toBeNull();
		view = reduce(view, end(0.0021), 0);
		expect(view.session.costUsd).toBe(0.0021);
		view = reduce(view, end(0.001), 0);
		expect(view.session.costUsd).toBeCloseTo(0.0031, 12);
		// One reply without a cost makes the total unknown, for good.
		view = reduce(view, end(null), 0);
		view = reduce(view, end(0.001), 0);
		expect(view.session.costUsd).toBeNull();
	});
});

describe("[providers.NAME.prices] and a profile's prices", () => {
	it("are read, cache prices default to the input's, and gar config shows them", () => {
		const { root, project, env } = tempHome();
		const file = join(root, "config", "gar", "config.toml");
		mkdirSync(join(root, "config", "gar"), { recursive: true });
		writeFileSync(
			file,
			'[providers.openai.prices]\ninput = 0.5\noutput = 1.5\n\n[profiles.local]\nprovider = "openai"\nbase_url = "http://127.0.0.1:1/v1"\n[profiles.local.prices]\ninput = 0.1\noutput = 0.2\ncache_read = 0.01\n',
		);
		const plain = loadConfig({ cwd: project, env });
		expect(plain.config.providers.openai.prices).toEqual({ input: 0.5, output: 1.5, cacheRead: 0.5, cacheWrite: 0.5 });
		const profile = loadConfig({ cwd: project, env, flags: { profile: "local" } });
		expect(profile.config.providers.openai.prices).toEqual({
			input: 0.1,
			output: 0.2,
			cacheRead: 0.01,
			cacheWrite: 0.1,
		});
		writeFileSync(file, "[providers.openai.prices]\ninput = -1\noutput = 1\n");
		expect(() => loadConfig({ cwd: project, env })).toThrow("providers.openai.prices.input: expected a price in USD");
	});

	it("price a run of gar -p on a model gar does not know, in its JSON result", async () => {
		server = await startWireServer([{ text: "hi", usage }]);
		const { root, project, env } = tempHome();
		mkdirSync(join(root, "config", "gar"), { recursive: true });
		writeFileSync(join(root, "config", "gar", "config.toml"), "[providers.openai.prices]\ninput = 0.5\noutput = 1.5\n");
		const out = await runGar(
			["-p", "--provider", "openai", "--model", "my-local", "--base-url", `${server.url}/v1`, "--output", "json", "hi"],
			{ env, cwd: project },
		);
		const result = JSON.parse(out.stdout) as { costUsd: number; totalCostUsd: number };
		const expected = Math.round(((2000 * 0.5 + 100 * 1.5 + 1000 * 0.5) / 1e6) * 1e6) / 1e6;
		expect(result.costUsd).toBe(expected);
		expect(result.totalCostUsd).toBe(expected);
		const shown = await runGar(["config"], { env, cwd: project });
		expect(shown.stdout).toMatch(/providers\.openai\.prices\.input\s+= 0\.5/);
	});
});
