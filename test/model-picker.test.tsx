// The model picker (/model with no name): the rows the configured providers can serve (gar's table, an
// OpenAI-compatible server's /v1/models, a failure falling back to the table), and choosing one in the app, which
// switches the provider too: the next request goes to that provider's wire.
import { render } from "ink-testing-library";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import { listServerModels, parseModelList } from "../src/llm/model-list.js";
import { modelRows, type Reach } from "../src/modes/model-switch.js";
import { setupRun } from "../src/modes/setup.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { App } from "../src/ui/screens/App.js";
import { type CommandContext, runCommand } from "../src/ui/screens/commands.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { modelPickerOf, rowColumns } from "../src/ui/state/model-picker.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";
import { tempHome } from "./support/cli.js";
import { appInfo, tick, until } from "./support/ui-app.js";
import { modelList, startWireServer, type WireServer } from "./support/wire-server.js";

beforeAll(loadMarkdown);

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const anthropic: Reach = { name: "anthropic", missingKey: null, model: "claude-sonnet-5-5", profileModels: [] };
const openai: Reach = { name: "openai", missingKey: null, model: "gpt-5.4", profileModels: ["o3"] };
const local: Reach = { ...openai, baseUrl: "http://127.0.0.1:1/v1", model: "qwen3-coder", profileModels: [] };

describe("the model picker's rows", () => {
	it("lists what each provider with a key serves, the one in use first and marked, with window and price", () => {
		const rows = modelRows({ provider: "openai", model: "gpt-5.4" }, { anthropic, openai }, {});
		expect(rows[0]).toMatchObject({ provider: "openai", id: "gpt-5.4", current: true, from: "config" });
		expect(rows[1]).toMatchObject({ provider: "openai", id: "o3", from: "config" });
		expect(rows.filter((r) => r.current)).toHaveLength(1);
		const sonnet = rows.find((r) => r.id === "claude-sonnet-4-5");
		expect(sonnet).toMatchObject({ provider: "anthropic", from: "table", contextWindow: 200_000 });
		if (!sonnet) throw new Error("no claude-sonnet-4-5 row");
		expect(rowColumns(sonnet)).toEqual({
			name: "anthropic/claude-sonnet-4-5",
			window: "200k",
			price: "$3.00 in · $15.00 out",
		});
		const lastOpenai = rows.map((r) => r.provider).lastIndexOf("openai");
		expect(rows.findIndex((r) => r.provider === "anthropic")).toBeGreaterThan(lastOpenai);
		// Without a key a provider serves nothing.
		const noKey = modelRows(
			{ provider: "openai", model: "gpt-5.4" },
			{ anthropic: { ...anthropic, missingKey: "K" }, openai },
			{},
		);
		expect(noKey.some((r) => r.provider === "anthropic")).toBe(false);
	});

	it("shows an OpenAI-compatible server's list (its windows too), and gar's table when it could not be listed", () => {
		const listed = [{ id: "llama3.3:70b", contextWindow: 131_072 }, { id: "qwen3-coder" }, { id: "gpt-5.4" }];
		const rows = modelRows(
			{ provider: "openai", model: "qwen3-coder" },
			{ anthropic, openai: local },
			{ openai: listed },
		);
		const own = rows.filter((r) => r.provider === "openai");
		expect(own.map((r) => [r.id, r.from, r.contextWindow])).toEqual([
			["qwen3-coder", "config", null],
			["llama3.3:70b", "server", 131_072],
			["gpt-5.4", "server", 1_050_000],
		]);
		const [first] = own;
		if (!first) throw new Error("no rows");
		expect(rowColumns(first)).toEqual({ name: "openai/qwen3-coder", window: "?", price: "price unknown" });
		const failed = modelRows(
			{ provider: "openai", model: "qwen3-coder" },
			{ anthropic, openai: local },
			{ openai: null },
		);
		expect(failed.filter((r) => r.provider === "openai" && r.from === "table").map((r) => r.id)).toContain("gpt-5.4");
	});
});

describe("listing a server's models", () => {
	it("reads OpenAI's shape, skips what is no id, and says in words why a list could not be read", async () => {
		expect(
			parseModelList('{"data":[{"id":"b"},{"id":"a","context_length":8192},{"id":""},{"x":1},{"id":"b"}]}'),
		).toEqual({
			models: [{ id: "a", contextWindow: 8192 }, { id: "b" }],
		});
		expect(parseModelList("<html>")).toEqual({ error: "the server's answer to GET /models is not JSON" });
		expect(parseModelList('{"models":[]}')).toEqual({
			error: "the server's answer to GET /models has no model list (data)",
		});

		server = await startWireServer([], modelList({ data: [{ id: "m1" }] }));
		expect(await listServerModels(`${server.url}/v1`, { apiKey: "sk-list-key" })).toEqual({ models: [{ id: "m1" }] });
		expect(server.requests[0]).toMatchObject({ method: "GET", path: "/v1/models" });
		expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-list-key");
		await server.close();

		server = await startWireServer([], modelList({ data: [], status: 401 }));
		expect(await listServerModels(`${server.url}/v1`)).toEqual({ error: "the server answered 401 to GET /models" });
	});

	it("costs at most its short timeout when the server is slow", async () => {
		server = await startWireServer([], modelList({ data: [{ id: "late" }], delayMs: 5000 }));
		const started = Date.now();
		expect(await listServerModels(`${server.url}/v1`, { timeoutMs: 300 })).toEqual({
			error: "the server did not list its models within 0.3 s",
		});
		expect(Date.now() - started).toBeLessThan(1500);
	});
});

const info = appInfo();

/** The real setup (an OpenAI-compatible server and Anthropic, both the wire server) and the app drawn over it. */
async function app(models: { data: unknown[]; status?: number; delayMs?: number }) {
	server = await startWireServer([{ text: "one" }, { text: "two" }, { text: "three" }], modelList(models));
	const { project, env } = tempHome();
	const setup = await setupRun(
		{ cwd: project, noSession: true, provider: "openai", model: "qwen3-coder", baseUrl: `${server.url}/v1` },
		{
			...env,
			OPENAI_API_KEY: "wire-openai-key",
			ANTHROPIC_API_KEY: "wire-anthropic-key",
			ANTHROPIC_BASE_URL: server.url,
		},
	);
	const events: AgentEvent[] = [];
	setup.channel.subscribe((e) => events.push(e));
	const store = new UiStore(initialView(setup.conversation.model));
	setup.channel.subscribe(store.onEvent);
	const ctx: CommandContext = {
		setup,
		store,
		input: new InputModel(),
		exit: () => {},
		columns: () => 120,
		writeTerminal: () => {},
	};
	const drawn = render(
		<App
			store={store}
			input={ctx.input}
			info={info}
			actions={{ submit: () => {}, abort: () => {}, exit: () => {} }}
			size={{ columns: 120, rows: 30 }}
		/>,
	);
	const frame = () => drawn.lastFrame() ?? "";
	const press = async (text: string) => {
		drawn.stdin.write(text);
		await tick();
	};
	const notices = () => events.flatMap((e) => (e.type === "notice" ? [e.message] : []));
	const lastPost = () => server?.requests.filter((r) => r.method === "POST").at(-1);
	return { setup, store, ctx, frame, press, notices, events, lastPost, unmount: drawn.unmount };
}

describe("/model with no name, in the app", () => {
	it("lists the server's models and gar's Anthropic table; choosing one switches the provider and its wire", async () => {
		const a = await app({ data: [{ id: "qwen3-coder" }, { id: "llama3.3:70b", context_length: 131072 }] });
		await runCommand("/model", a.ctx);
		expect(a.store.screen).toBe("models");
		await until(() => a.frame().includes("openai/llama3.3:70b"));
		expect(a.frame()).toMatch(/● openai\/qwen3-coder\s+\?\s+price unknown/);
		expect(a.frame()).toMatch(/openai\/llama3\.3:70b\s+131k\s+price unknown/);
		// Typing filters (keys typed fast come as one string, Backspace inside it too); Enter takes the selected row.
		await a.press("llamx\x7f\x7f\x7f\x7f\x7f");
		for (const char of "sonnet-4-5") await a.press(char);
		await until(() => a.frame().includes("filter › sonnet-4-5"));
		expect(a.frame()).toMatch(/anthropic\/claude-sonnet-4-5\s+200k\s+\$3\.00 in · \$15\.00 out/);
		expect(a.frame()).not.toContain("openai/llama3.3:70b");
		await a.press("\r");
		await until(() => a.setup.conversation.model.provider === "anthropic");
		expect(a.store.screen).toBe("chat");
		expect(a.setup.conversation.model.model).toBe("claude-sonnet-4-5");
		expect(a.notices().at(-1)).toBe("model: anthropic/claude-sonnet-4-5 from the next message on");
		await a.setup.conversation.run("hello");
		expect(a.lastPost()).toMatchObject({ path: "/v1/messages", body: { model: "claude-sonnet-4-5" } });
		expect(a.events.some((e) => e.type === "model_change" && e.model === "claude-sonnet-4-5")).toBe(true);
		// An id on the server's list needs no note; one on no list gets the one line.
		await runCommand("/model openai/llama3.3:70b", a.ctx);
		expect(a.notices().at(-1)).toBe("model: openai/llama3.3:70b from the next message on");
		await runCommand("/model openai/mystery-9", a.ctx);
		expect(a.notices().at(-1)).toBe(
			"model: openai/mystery-9 from the next message on\ngar does not know mystery-9: its price and context window are unknown (context_window in [providers.openai] sets the window)",
		);
		a.unmount();
		a.setup.conversation.close();
	});

	it("a server that cannot list its models costs the short timeout, and the table still shows; Esc changes nothing", async () => {
		const a = await app({ data: [], status: 500 });
		await runCommand("/model", a.ctx);
		await until(() => a.frame().includes("could not list the models of openai"));
		expect(a.frame()).toContain(
			"could not list the models of openai (the server answered 500 to GET /models): showing gar's table",
		);
		expect(a.frame()).toContain("openai/gpt-5.4");
		expect(
			modelPickerOf(a.store)
				?.shown()
				.some((r) => r.id === "claude-opus-4-5"),
		).toBe(true);
		await a.press("\u001b");
		await until(() => a.store.screen === "chat");
		expect(a.setup.conversation.model).toMatchObject({ provider: "openai", model: "qwen3-coder" });
		a.unmount();
		a.setup.conversation.close();
	});
});
