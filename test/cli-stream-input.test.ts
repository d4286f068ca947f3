// gar -p --input-format stream-json: one conversation over many turns, driven line by line like a program would.
import { afterEach, describe, expect, it } from "vitest";
import { runGar, spawnGarPiped, tempHome } from "./support/cli.js";
import { type RecordedRequest, startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const ARGS = ["-p", "--input-format", "stream-json", "--output", "stream-json"];

function start(extra: string[] = []) {
	const { project, env } = tempHome();
	const gar = spawnGarPiped([...ARGS, "--base-url", (server as WireServer).url, ...extra], {
		env: { ...env, OPENAI_API_KEY: "k" },
		cwd: project,
	});
	return { gar, project, env };
}

/** The texts of the user messages a request sent. */
function userTexts(request: RecordedRequest | undefined): string[] {
	const messages = (request?.body as { messages?: { role: string; content: unknown }[] })?.messages ?? [];
	return messages.filter((m) => m.role === "user").map((m) => (typeof m.content === "string" ? m.content : ""));
}

const results = (lines: Record<string, unknown>[]) => lines.filter((l) => l.type === "result");

describe("gar -p --input-format stream-json", () => {
	it("keeps one conversation over three turns, each with its own result, and exits 0 when stdin closes", async () => {
		server = await startWireServer([{ text: "one" }, { text: "two" }, { text: "three" }]);
		const { gar } = start();
		gar.send({ type: "prompt", text: "first" });
		gar.send({ type: "prompt", text: "second" });
		gar.send({ type: "prompt", text: "third" });
		gar.child.stdin?.end();
		expect(await gar.closed).toBe(0);
		const done = results(gar.lines());
		expect(done.map((r) => r.result)).toEqual(["one", "two", "three"]);
		expect(new Set(done.map((r) => r.sessionId)).size).toBe(1);
		expect(done[0]?.sessionId).toEqual(expect.any(String));
		// The third request carries the whole conversation.
		expect(userTexts(server.requests[2])).toEqual(["first", "second", "third"]);
	});

	it("delivers a steer sent during a tool after that tool, in the same run", async () => {
		server = await startWireServer([
			{ toolCalls: [{ id: "b1", name: "bash", args: { command: "sleep 0.4; echo slept" } }] },
			{ text: "steered" },
		]);
		const { gar } = start();
		gar.send({ type: "prompt", text: "sleep please" });
		await gar.waitFor((l) => l.type === "tool_start");
		gar.send({ type: "steer", text: "also say steered" });
		await gar.waitFor((l) => l.type === "result");
		gar.child.stdin?.end();
		expect(await gar.closed).toBe(0);
		const lines = gar.lines();
		const toolEnd = lines.findIndex((l) => l.type === "tool_end");
		const steer = lines.findIndex((l) => l.type === "user_message" && l.source === "steer");
		expect(toolEnd).toBeGreaterThan(-1);
		expect(steer).toBeGreaterThan(toolEnd);
		expect(results(lines)).toHaveLength(1);
		expect(userTexts(server.requests[1])).toEqual(["sleep please", "also say steered"]);
	});

	it("an abort line stops the running run only: the next prompt runs, and the exit code is 0", async () => {
		server = await startWireServer([
			{ text: Array.from({ length: 40 }, (_, i) => `${i} `), delayMs: 50 },
			{ text: "fine" },
		]);
		const { gar } = start();
		gar.send({ type: "prompt", text: "count slowly" });
		await gar.waitFor((l) => l.type === "text_delta");
		gar.send({ type: "abort" });
		const first = await gar.waitFor((l) => l.type === "result");
		expect(first).toMatchObject({ ok: false, stopReason: "aborted" });
		gar.send({ type: "prompt", text: "are you there?" });
		gar.child.stdin?.end();
		expect(await gar.closed).toBe(0);
		expect(results(gar.lines()).map((r) => r.result)).toEqual([expect.any(String), "fine"]);
	});

	it("takes Claude Code's user message shape (string or text blocks)", async () => {
		server = await startWireServer([{ text: "a" }, { text: "b" }]);
		const { gar } = start();
		gar.send({ type: "user", message: { role: "user", content: "plain string" }, session_id: "default" });
		gar.send({
			type: "user",
			message: {
				role: "user",
				content: [
					{ type: "text", text: "block one" },
					{ type: "text", text: "block two" },
				],
			},
			parent_tool_use_id: null,
		});
		gar.child.stdin?.end();
		expect(await gar.closed).toBe(0);
		expect(userTexts(server.requests[1])).toEqual(["plain string", "block one\n\nblock two"]);
	});

	it("keeps a line with U+2028 and U+2029 whole, and the JSON carries the exact text back", async () => {
		server = await startWireServer([{ text: "x\u2028y\u2029z" }]);
		const { gar } = start();
		gar.send({ type: "prompt", text: "line\u2028separator\u2029paragraph" });
		gar.child.stdin?.end();
		expect(await gar.closed).toBe(0);
		expect(server.requests).toHaveLength(1);
		expect(userTexts(server.requests[0])).toEqual(["line\u2028separator\u2029paragraph"]);
		expect(results(gar.lines())[0]?.result).toBe("x\u2028y\u2029z");
	});

	it("reports bad lines as error notices, goes on with the good ones, and exits 1", async () => {
		server = await startWireServer([{ text: "still here" }]);
		const { gar } = start();
		gar.send("{not json");
		gar.send({ type: "dance" });
		gar.send({ type: "prompt" });
		gar.send({ type: "user", message: { role: "user", content: [{ type: "image", source: {} }] } });
		gar.send({ type: "prompt", text: "hello" });
		gar.child.stdin?.end();
		expect(await gar.closed).toBe(1);
		const notices = gar.lines().filter((l) => l.type === "notice" && l.level === "error");
		expect(notices.map((n) => n.message)).toEqual([
			expect.stringMatching(/^stdin line 1: not JSON/),
			expect.stringMatching(/^stdin line 2: unknown type "dance"/),
			expect.stringMatching(/^stdin line 3: prompt needs "text"/),
			expect.stringMatching(/^stdin line 4: only text content blocks/),
		]);
		expect(results(gar.lines()).map((r) => r.result)).toEqual(["still here"]);
		expect(gar.stderr()).toContain("gar: error: stdin line 1: not JSON");
	});

	it("refuses a 100 MB line with a clear error and takes the next line", async () => {
		server = await startWireServer([{ text: "after the big one" }]);
		const { gar } = start();
		const huge = Buffer.alloc(100 * 1024 * 1024, 0x61);
		gar.child.stdin?.write(huge);
		gar.send("");
		gar.send({ type: "prompt", text: "small" });
		gar.child.stdin?.end();
		expect(await gar.closed).toBe(1);
		const notice = gar.lines().find((l) => l.type === "notice");
		expect(notice?.message).toBe(
			"stdin line 1: the line is over 1 MB and was skipped; pass --max-stdin BYTES to allow longer lines",
		);
		expect(results(gar.lines()).map((r) => r.result)).toEqual(["after the big one"]);
	}, 30_000);

	it("switches the model between turns with set_model, and refuses one it cannot serve", async () => {
		server = await startWireServer([{ text: "a" }, { text: "b" }]);
		const { gar } = start();
		gar.send({ type: "prompt", text: "one" });
		gar.send({ type: "set_model", model: "gpt-5" });
		gar.send({ type: "set_model", model: "anthropic/claude-sonnet-4-5" });
		gar.send({ type: "prompt", text: "two" });
		gar.child.stdin?.end();
		expect(await gar.closed).toBe(1);
		expect(gar.lines().find((l) => l.type === "model_change")).toMatchObject({ provider: "openai", model: "gpt-5" });
		const refused = gar.lines().find((l) => l.type === "notice" && l.level === "error");
		expect(refused?.message).toMatch(/^set_model: /);
		expect(JSON.stringify(server.requests[1]?.body)).toContain('"model":"gpt-5"');
		expect(results(gar.lines())).toHaveLength(2);
	});

	it("a signal aborts the running command and drops the queued prompts (exit 130)", async () => {
		server = await startWireServer([{ toolCalls: [{ id: "s", name: "bash", args: { command: "sleep 30" } }] }]);
		const { gar } = start();
		gar.send({ type: "prompt", text: "wait" });
		gar.send({ type: "prompt", text: "never run" });
		await gar.waitFor((l) => l.type === "tool_start");
		const started = Date.now();
		gar.child.kill("SIGINT");
		expect(await gar.closed).toBe(130);
		expect(Date.now() - started).toBeLessThan(3000);
		expect(results(gar.lines())).toHaveLength(1);
		expect(server.requests).toHaveLength(1);
	});

	it("needs --output stream-json", async () => {
		const { project, env } = tempHome();
		const run = await runGar(["-p", "--input-format", "stream-json"], { env, cwd: project, stdin: "" });
		expect(run.code).toBe(2);
		expect(run.stderr).toBe(
			"gar: --input-format stream-json needs --output stream-json: the answers come back as stream-json events\n",
		);
	});
});
