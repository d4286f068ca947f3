import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import { modelChoices, parseModelSpec, type Reach, refuseSwitch, unknownModelNote } from "../src/modes/model-switch.js";
import { type Setup, setupRun } from "../src/modes/setup.js";
import { type CommandContext, runCommand } from "../src/ui/screens/commands.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";
import { tempHome } from "./support/cli.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

const anthropic: Reach = { name: "anthropic", missingKey: null, model: "claude-sonnet-5-5", profileModels: [] };
const openai: Reach = { name: "openai", missingKey: null, model: "gpt-5.4", profileModels: ["o3"] };
const local: Reach = { ...openai, baseUrl: "http://localhost:11434/v1", model: "qwen3-coder", profileModels: [] };
const noKey = (reach: Reach): Reach => ({
	...reach,
	missingKey: reach.name === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY",
});

describe("what /model switches to", () => {
	it("`anthropic/NAME` and `openai/NAME` name the provider; any other id stays whole on the provider in use", () => {
		expect(parseModelSpec("gpt-5.4", "anthropic")).toEqual({ provider: "anthropic", model: "gpt-5.4" });
		expect(parseModelSpec("openai/gpt-5.4", "anthropic")).toEqual({ provider: "openai", model: "gpt-5.4" });
		expect(parseModelSpec("anthropic/claude-sonnet-4-5", "openai")).toEqual({
			provider: "anthropic",
			model: "claude-sonnet-4-5",
		});
		expect(parseModelSpec("qwen/qwen3-coder", "openai")).toEqual({ provider: "openai", model: "qwen/qwen3-coder" });
		expect(parseModelSpec("openai/anthropic/claude-sonnet-4.5", "openai")).toEqual({
			provider: "openai",
			model: "anthropic/claude-sonnet-4.5",
		});
	});

	it("refuses a model the other provider's wire serves, and says how to switch the provider", () => {
		expect(refuseSwitch({ provider: "anthropic", model: "gpt-5.4" }, anthropic, anthropic)).toBe(
			"gpt-5.4 is an OpenAI model, which anthropic cannot serve: /model openai/gpt-5.4 switches the provider",
		);
		expect(refuseSwitch({ provider: "openai", model: "claude-sonnet-4-5" }, openai, openai)).toContain(
			"/model anthropic/claude-sonnet-4-5 switches the provider",
		);
		// An OpenAI-compatible server may serve any id (OpenRouter, LiteLLM); an unknown id is allowed anywhere.
		expect(refuseSwitch({ provider: "openai", model: "claude-sonnet-4-5" }, local, local)).toBeNull();
		expect(refuseSwitch({ provider: "anthropic", model: "claude-next-9" }, anthropic, anthropic)).toBeNull();
		expect(refuseSwitch({ provider: "openai", model: "" }, openai, anthropic)).toBe(
			"/model openai/NAME: the model name is missing",
		);
		// A family gar knows by name, even for a model newer than its table.
		expect(refuseSwitch({ provider: "openai", model: "claude-next-9" }, openai, openai)).toBe(
			"claude-next-9 is an Anthropic model, which openai cannot serve: /model anthropic/claude-next-9 switches the provider",
		);
		expect(refuseSwitch({ provider: "anthropic", model: "o7-mini" }, anthropic, anthropic)).toContain(
			"is an OpenAI model",
		);
		// Lines typed together with Alt+Enter are not one model name.
		expect(refuseSwitch({ provider: "anthropic", model: "claude-opus-5\n/model x" }, anthropic, anthropic)).toBe(
			"a model name has no spaces or line breaks: /model NAME",
		);
	});

	it("a provider without a key is not switched to: the message says what to set", () => {
		expect(refuseSwitch({ provider: "openai", model: "gpt-5.4" }, noKey(openai), anthropic)).toBe(
			"no API key for openai: set OPENAI_API_KEY (or api_key_env in [providers.openai]), or base_url in [providers.openai] for an OpenAI-compatible server and start gar again",
		);
		// On an OpenAI-compatible server, "anthropic/…" may have been meant as the server's own id.
		expect(refuseSwitch({ provider: "anthropic", model: "claude-sonnet-4.5" }, noKey(anthropic), local)).toContain(
			"for this server's id write /model openai/anthropic/claude-sonnet-4.5",
		);
	});

	it("notes a model gar does not know: its price (and window, unless configured) is unknown", () => {
		expect(unknownModelNote("gpt-5.4", openai)).toBeNull();
		expect(unknownModelNote("qwen3-coder", local)).toBe(
			"gar does not know qwen3-coder: its price and context window are unknown (context_window in [providers.openai] sets the window)",
		);
		expect(unknownModelNote("qwen3-coder", { ...local, contextWindow: 32_768 })).toBe(
			"gar does not know qwen3-coder: its price is unknown",
		);
	});

	it("completes what the provider in use can serve, then the other provider's models as `provider/NAME`", () => {
		const both = modelChoices({ provider: "anthropic", model: "claude-sonnet-4-5" }, { anthropic, openai });
		expect(both.slice(0, 2)).toEqual(["claude-sonnet-4-5", "claude-sonnet-5-5"]);
		const own = both.filter((m) => !m.includes("/"));
		expect(own.every((m) => m.startsWith("claude-"))).toBe(true);
		expect(both).toContain("openai/gpt-5.4");
		expect(both).toContain("openai/o3");
		expect(new Set(both).size).toBe(both.length);
		// Without a key the other provider is not offered; an OpenAI-compatible server offers only the ids it is given.
		expect(
			modelChoices({ provider: "anthropic", model: "claude-sonnet-5-5" }, { anthropic, openai: noKey(openai) }),
		).toEqual(expect.not.arrayContaining(["openai/gpt-5.4"]));
		expect(
			modelChoices({ provider: "openai", model: "qwen3-coder" }, { anthropic: noKey(anthropic), openai: local }),
		).toEqual(["qwen3-coder"]);
	});
});

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/** The real setup and the /model command, both providers pointed at the wire server. */
async function app(env: NodeJS.ProcessEnv) {
	const { project, env: home } = tempHome();
	const setup = await setupRun({ cwd: project, noSession: true }, { ...home, ...env });
	const events: AgentEvent[] = [];
	setup.channel.subscribe((e) => events.push(e));
	const ctx: CommandContext = {
		setup,
		store: new UiStore(initialView(setup.conversation.model)),
		input: new InputModel(),
		exit: () => {},
		columns: () => 120,
		writeTerminal: () => {},
	};
	const notices = () => events.flatMap((e) => (e.type === "notice" ? [e.message] : []));
	return { setup, ctx, notices };
}

/** The path and model of the latest model request. */
function lastRequest(): { path: string; model: unknown } {
	const post = server?.requests.filter((r) => r.method === "POST").at(-1);
	return { path: post?.path ?? "", model: (post?.body as { model?: unknown } | undefined)?.model };
}

async function send(setup: Setup, text: string) {
	const result = await setup.conversation.run(text);
	expect(result.error).toBeUndefined();
}

describe("/model against the wire server", () => {
	it("sends each model to its own provider's wire; a model of the other wire is refused, not sent", async () => {
		server = await startWireServer([{ text: "one" }, { text: "two" }, { text: "three" }]);
		const { setup, ctx, notices } = await app({
			ANTHROPIC_API_KEY: "wire-anthropic-key",
			ANTHROPIC_BASE_URL: server.url,
			OPENAI_API_KEY: "wire-openai-key",
			OPENAI_BASE_URL: server.url,
		});
		expect(setup.conversation.model.provider).toBe("anthropic");

		await runCommand("/model gpt-5.4", ctx);
		expect(notices().at(-1)).toBe(
			"gpt-5.4 is an OpenAI model, which anthropic cannot serve: /model openai/gpt-5.4 switches the provider",
		);
		expect(setup.conversation.model.provider).toBe("anthropic");

		await runCommand("/model openai/gpt-5.4", ctx);
		expect(notices().at(-1)).toBe("model: openai/gpt-5.4 from the next message on");
		await send(setup, "hello");
		expect(lastRequest()).toEqual({ path: expect.stringMatching(/\/chat\/completions$/), model: "gpt-5.4" });

		await runCommand("/model anthropic/claude-sonnet-4-5", ctx);
		await send(setup, "again");
		expect(lastRequest()).toEqual({ path: expect.stringMatching(/\/messages$/), model: "claude-sonnet-4-5" });
		expect(setup.conversation.model).toMatchObject({ provider: "anthropic", model: "claude-sonnet-4-5" });

		// The OpenAI side is a server at a base URL: any id goes, with a note that gar does not know it.
		await runCommand("/model openai/qwen3-coder", ctx);
		expect(notices().at(-1)).toBe(
			"model: openai/qwen3-coder from the next message on\ngar does not know qwen3-coder: its price and context window are unknown (context_window in [providers.openai] sets the window)",
		);
		await send(setup, "last");
		expect(lastRequest()).toEqual({ path: expect.stringMatching(/\/chat\/completions$/), model: "qwen3-coder" });
		expect(setup.modelChoices()[0]).toBe("qwen3-coder");
		setup.conversation.close();
	});

	it("without the other provider's key, says what to set and keeps the model", async () => {
		server = await startWireServer([]);
		const { setup, ctx, notices } = await app({
			ANTHROPIC_API_KEY: "wire-anthropic-key",
			ANTHROPIC_BASE_URL: server.url,
		});
		await runCommand("/model openai/gpt-5.4", ctx);
		expect(notices().at(-1)).toContain("no API key for openai: set OPENAI_API_KEY");
		expect(setup.conversation.model.provider).toBe("anthropic");
		expect(setup.modelChoices().some((m) => m.startsWith("openai/"))).toBe(false);
		setup.conversation.close();
	});
});
