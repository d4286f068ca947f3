import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runGar, tempHome } from "./support/cli.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/** A fresh home whose user config sets `toml`, and the env to run gar there against `url` (OpenAI wire). */
function home(toml: string) {
	const h = tempHome();
	mkdirSync(join(h.root, "config", "gar"), { recursive: true });
	writeFileSync(join(h.root, "config", "gar", "config.toml"), toml);
	return { ...h, env: { ...h.env, OPENAI_API_KEY: "sk-test-key-123456" } };
}

const big = (tag: string) => `${tag} ${"x".repeat(2000)}`;
const OVERFLOW = JSON.stringify({
	error: {
		message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
		type: "invalid_request_error",
		param: "messages",
		code: "context_length_exceeded",
	},
});

describe("compaction from the CLI", () => {
	it("reports contextTokens and contextWindow, compacts with gar compact, and lists the sizes", async () => {
		server = await startWireServer([
			{ text: "done one", usage: { input: 1200, output: 30 } },
			{ text: "done two", usage: { input: 2400, output: 30 } },
			{ text: "SUMMARY" },
		]);
		const { project, env } = home("[context]\nwindow = 100000\nkeep_recent_tokens = 600\n");
		const opts = { env, cwd: project };
		const base = ["--base-url", server.url, "--output", "json", "--model", "local-model"];
		const first = await runGar(["-p", big("task one"), ...base], opts);
		expect(first.code).toBe(0);
		const result = JSON.parse(first.stdout);
		expect(result).toMatchObject({ contextTokens: 1230, contextWindow: 100_000 });
		expect((await runGar(["-p", big("task two"), "-c", ...base], opts)).code).toBe(0);

		// Root options (the server) go before the subcommand; the session's model is used.
		const args = ["--base-url", server.url, "compact", result.sessionId, "--focus", "the tests", "--json"];
		const compact = await runGar(args, opts);
		expect(compact.stderr).toBe("");
		expect(compact.code).toBe(0);
		const compacted = JSON.parse(compact.stdout);
		expect(compacted).toMatchObject({ ok: true, sessionId: result.sessionId });
		expect(compacted.tokensAfter).toBeLessThan(compacted.tokensBefore);
		expect(JSON.stringify(server.requests[2]?.body)).toContain("Focus especially on: the tests");

		const listed = JSON.parse((await runGar(["sessions", "--json"], opts)).stdout);
		expect(listed[0]).toMatchObject({ contextTokens: compacted.tokensAfter, contextWindow: 100_000 });
		const shown = await runGar(["show", result.sessionId], opts);
		expect(shown.stdout).toContain("compacted (manual)");
	});

	it("ends with exit 1 and advice when the request is still too long after compacting, without a loop", async () => {
		server = await startWireServer([
			{ text: "done one", usage: { input: 1200, output: 10 } },
			{ text: "SUMMARY", fault: { kind: "http", status: 400, body: OVERFLOW } },
			{ text: "never", fault: { kind: "http", status: 400, body: OVERFLOW, times: 9 } },
		]);
		const { project, env } = home("[context]\nkeep_recent_tokens = 600\n");
		const opts = { env, cwd: project };
		const base = ["--base-url", server.url, "--model", "local-model"];
		expect((await runGar(["-p", big("task one"), ...base], opts)).code).toBe(0);
		const second = await runGar(["-p", big("task two"), "-c", "--output", "json", ...base], opts);
		expect(second.code).toBe(1);
		expect(JSON.parse(second.stdout)).toMatchObject({ ok: false, errorKind: "overflow" });
		expect(JSON.parse(second.stdout).error).toContain("keep_recent_tokens");
		// Model calls only: gar also asks the server the window of a model it does not know (GET /v1/models, …).
		expect(server.requests.filter((r) => r.path.endsWith("/chat/completions"))).toHaveLength(4);
	});

	it("gar compact exits 1 and saves nothing when the summary would not make the context smaller", async () => {
		server = await startWireServer([
			{ text: "done one", usage: { input: 700, output: 30 } },
			{ text: "done two", usage: { input: 800, output: 30 } },
			{ text: `SUMMARY ${"y".repeat(8000)}` },
		]);
		const { project, env } = home("[context]\nwindow = 100000\n");
		const opts = { env, cwd: project };
		const base = ["--base-url", server.url, "--output", "json", "--model", "local-model"];
		const first = JSON.parse((await runGar(["-p", `task one ${"a".repeat(400)}`, ...base], opts)).stdout);
		expect((await runGar(["-p", `task two ${"b".repeat(400)}`, "-c", ...base], opts)).code).toBe(0);
		const file = first.sessionId;
		const before = (await runGar(["show", "--json", file], opts)).stdout;

		const compact = await runGar(["--base-url", server.url, "compact", file], opts);
		expect(compact.code).toBe(1);
		expect(compact.stdout).toBe("");
		expect(compact.stderr).toMatch(
			/^gar: compaction failed: the summary would not make the context smaller \(\d+ → [\d.]+k tokens\); the session is unchanged\n$/,
		);
		expect((await runGar(["show", "--json", file], opts)).stdout).toBe(before);
		const json = await runGar(["--base-url", server.url, "compact", file, "--json"], opts);
		expect(json.code).toBe(1);
		expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, sessionId: file });
	});

	it("gar compact exits 1 without a model call when the older turns are smaller than any summary", async () => {
		server = await startWireServer([
			{ text: "done one", usage: { input: 700, output: 3 } },
			{ text: "done two", usage: { input: 720, output: 3 } },
			{ text: "SUMMARY" },
		]);
		const { project, env } = home("[context]\nwindow = 100000\n");
		const opts = { env, cwd: project };
		const base = ["--base-url", server.url, "--output", "json", "--model", "local-model"];
		const first = JSON.parse((await runGar(["-p", "task one", ...base], opts)).stdout);
		expect((await runGar(["-p", "task two", "-c", ...base], opts)).code).toBe(0);
		const compact = await runGar(["--base-url", server.url, "compact", first.sessionId], opts);
		expect(compact.code).toBe(1);
		expect(compact.stdout).toBe("");
		expect(compact.stderr).toMatch(/^gar: compaction failed: nothing worth compacting: .*\n$/);
		expect(server.requests).toHaveLength(2);
	});

	it("validates the [context] keys like the rest of the config", async () => {
		const { project, env } = home("[context]\nmax_tool_result_share = 2\nreserve = 5\n");
		const run = await runGar(["config"], { env, cwd: project });
		expect(run.code).toBe(2);
		expect(run.stderr).toContain("max_tool_result_share");
		expect(run.stderr).toContain("a number > 0 and ≤ 1");
	});
});
