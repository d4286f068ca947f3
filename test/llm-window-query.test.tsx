// The window of a model gar does not know, asked of its server (src/llm/window-query.ts): every server shape, served
// by the test server — vLLM's max_model_len, OpenRouter's and LM Studio's model lists, llama.cpp's /props, Ollama's
// /api/show; a slow, huge or malformed answer costs at most the timeout and changes nothing; asked once per process;
// and a headless run uses the answer (its agent_start says the window) while the app's inspector shows a share.
import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import { Conversation } from "../src/conversation/conversation.js";
import { createNodeFetch } from "../src/llm/http-fetch.js";
import { createScriptedProvider } from "../src/llm/scripted.js";
import { contextWindowFromServer, queryContextWindow } from "../src/llm/window-query.js";
import { Inspector } from "../src/ui/views/Inspector.js";
import { reduce } from "../src/view/reducer.js";
import { initialView } from "../src/view/state.js";
import { runGar, tempHome } from "./support/cli.js";
import { type OtherAnswer, type RecordedRequest, startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const json = (value: unknown): OtherAnswer => ({ body: JSON.stringify(value) });
type Shape = (req: RecordedRequest) => OtherAnswer | undefined;

async function ask(shape: Shape, model = "my-model", timeoutMs = 1000) {
	server = await startWireServer([], shape);
	return queryContextWindow({ baseUrl: `${server.url}/v1`, model, fetch: createNodeFetch(), timeoutMs });
}

describe("the context window, asked of the server", () => {
	it("vLLM: max_model_len in /v1/models", async () => {
		const shape: Shape = (req) =>
			req.path === "/v1/models"
				? json({
						data: [
							{ id: "other", max_model_len: 1 },
							{ id: "my-model", max_model_len: 32768 },
						],
					})
				: undefined;
		expect(await ask(shape)).toEqual({ window: 32768, source: "models: max_model_len" });
	});

	it("OpenRouter: context_length in the model list, matched with its vendor prefix", async () => {
		const shape: Shape = (req) =>
			req.path === "/v1/models"
				? json({ data: [{ id: "qwen/qwen3-coder", context_length: 262144, top_provider: { context_length: 262144 } }] })
				: undefined;
		expect(await ask(shape, "qwen/qwen3-coder")).toEqual({ window: 262144, source: "models: context_length" });
	});

	it("LM Studio: the loaded context of the model in its own API", async () => {
		const shape: Shape = (req) =>
			req.path === "/api/v0/models/my-model"
				? json({ id: "my-model", loaded_context_length: 8192, max_context_length: 131072 })
				: req.path === "/v1/models"
					? json({ data: [{ id: "my-model" }] })
					: undefined;
		expect(await ask(shape)).toEqual({ window: 8192, source: "models: loaded_context_length" });
	});

	it("llama.cpp: n_ctx of /props", async () => {
		const shape: Shape = (req) =>
			req.path === "/props" ? json({ default_generation_settings: { n_ctx: 16384 } }) : undefined;
		expect(await ask(shape)).toEqual({ window: 16384, source: "llama.cpp /props: n_ctx" });
	});

	it("Ollama: num_ctx of /api/show when the model sets it, else its architecture's context_length", async () => {
		const show =
			(parameters: string): Shape =>
			(req) =>
				req.path === "/api/show" && (req.body as { model?: string }).model === "my-model"
					? json({ parameters, model_info: { "general.architecture": "qwen2", "qwen2.context_length": 32768 } })
					: undefined;
		expect(await ask(show('stop "<|im_end|>"\nnum_ctx 8192'))).toEqual({
			window: 8192,
			source: "ollama /api/show: num_ctx",
		});
		await server?.close();
		expect(await ask(show("temperature 0.7"))).toEqual({
			window: 32768,
			source: "ollama /api/show: qwen2.context_length",
		});
	});

	it("a slow, malformed, absurd or unknown answer is no answer, and costs at most the timeout", async () => {
		const slow: Shape = (req) =>
			req.path === "/v1/models"
				? { ...json({ data: [{ id: "my-model", max_model_len: 4096 }] }), delayMs: 3000 }
				: undefined;
		const started = Date.now();
		expect(await ask(slow, "my-model", 300)).toBeNull();
		expect(Date.now() - started).toBeLessThan(1500);
		await server?.close();
		expect(await ask((req) => (req.path === "/props" ? { body: "{not json" } : undefined))).toBeNull();
		await server?.close();
		// A huge answer (here 20 MB, sent chunked) is not read past the limit: no answer.
		const huge = JSON.stringify({ data: [{ id: "my-model", max_model_len: 4096, pad: "x".repeat(20 * 1024 * 1024) }] });
		expect(await ask((req) => (req.path === "/v1/models" ? { body: huge } : undefined), "my-model", 5000)).toBeNull();
		await server?.close();
		expect(await ask((req) => (req.path === "/props" ? json({ n_ctx: 1e12 }) : undefined))).toBeNull();
		await server?.close();
		expect(await ask(() => undefined)).toBeNull();
		expect(
			await queryContextWindow({ baseUrl: "http://127.0.0.1:1/v1", model: "m", fetch: createNodeFetch() }),
		).toBeNull();
	});

	it("is asked once per server and model in a process", async () => {
		let asked = 0;
		server = await startWireServer([], (req) => {
			if (req.path !== "/props") return undefined;
			asked++;
			return json({ n_ctx: 4096 });
		});
		const query = { baseUrl: `${server.url}/v1`, model: "once", fetch: createNodeFetch() };
		expect((await contextWindowFromServer(query))?.window).toBe(4096);
		expect((await contextWindowFromServer(query))?.window).toBe(4096);
		expect(asked).toBe(1);
	});

	it("gar -p on such a model runs with the window its server told (and none when it tells nothing)", async () => {
		server = await startWireServer([{ text: "a" }, { text: "b" }], (req) =>
			req.path === "/props" ? json({ n_ctx: 12288 }) : undefined,
		);
		const { project, env } = tempHome();
		const base = ["-p", "--provider", "openai", "--base-url", `${server.url}/v1`, "--output", "stream-json"];
		const run = await runGar([...base, "--model", "local-a", "hi"], { env, cwd: project });
		const start = run.stdout
			.split("\n")
			.filter(Boolean)
			.map((line) => JSON.parse(line) as { type: string; contextWindow?: number | null })
			.find((e) => e.type === "agent_start");
		expect(start?.contextWindow).toBe(12288);
		const result = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as { contextWindow: number | null };
		expect(result.contextWindow).toBe(12288);
		await server.close();
		server = await startWireServer([{ text: "c" }]);
		const none = await runGar(
			[...base.slice(0, 4), `${server.url}/v1`, "--output", "json", "--model", "local-b", "hi"],
			{
				env,
				cwd: project,
			},
		);
		expect((JSON.parse(none.stdout) as { contextWindow: number | null }).contextWindow).toBeNull();
	});
});

describe("a window learnt after the start", () => {
	it("reaches the conversation (caps, compaction) and the inspector's share, without a model change recorded", () => {
		const channel = new EventChannel();
		let view = initialView({ provider: "openai", model: "local" });
		channel.subscribe((event) => {
			view = reduce(view, event, 0);
		});
		const conversation = new Conversation({
			channel,
			provider: createScriptedProvider([]),
			model: "local",
			contextWindow: null,
			system: { text: "", parts: [] },
			tools: [],
			session: null,
			approval: { required: false, autoApprove: [] },
		});
		const before = render(
			<Inspector view={view} width={40} version={0} sessionId={null} sessionBranch="–" idleTimeoutMs={null} />,
		);
		expect(before.lastFrame()).toContain("(window unknown)");
		before.unmount();
		conversation.setContextWindow(12288);
		expect(conversation.context.window).toBe(12288);
		expect(view.context.window).toBe(12288);
		const after = render(
			<Inspector view={view} width={40} version={1} sessionId={null} sessionBranch="–" idleTimeoutMs={null} />,
		);
		expect(after.lastFrame()).toContain("0% of 12.3k");
		after.unmount();
	});
});
