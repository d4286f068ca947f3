// gar request and gar context on the built CLI: the exact body of any call of a saved session (--raw is the bytes
// the server got), the report as JSON, the list of calls, a readable summary; what fills the next request's context.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runGar, tempHome } from "./support/cli.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function session() {
	server = await startWireServer([
		{ toolCalls: [{ id: "c1", name: "bash", args: { command: "echo hi" } }], usage: { input: 900, output: 10 } },
		{ text: "It printed hi.", usage: { input: 950, output: 5 } },
		{ text: "Second answer.", usage: { input: 1000, output: 4 } },
	]);
	const home = tempHome();
	writeFileSync(join(home.project, "AGENTS.md"), `# Rules\n${"Be brief. ".repeat(400)}\n`);
	const env = { ...home.env, OPENAI_API_KEY: "sk-test-abcdefgh12345678" };
	const run = (args: string[]) => runGar(args, { env, cwd: home.project });
	const base = ["--provider", "openai", "--model", "gpt-5.4", "--base-url", `${server.url}/v1`];
	const first = await run(["-p", "--output", "json", ...base, "run echo hi"]);
	expect(first.code).toBe(0);
	const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
	expect((await run(["-p", ...base, "--session", sessionId, "and again"])).code).toBe(0);
	return { run, sessionId };
}

describe("gar request and gar context", () => {
	it("prints the exact body sent of any call, the report, the list of calls, and says it is exact", async () => {
		const { run, sessionId } = await session();
		const received = server?.requests ?? [];
		expect(received).toHaveLength(3);
		const list = await run(["request", sessionId]);
		expect(list.code).toBe(0);
		expect(list.stdout).toContain("3 model calls");
		expect(list.stdout.match(/gpt-5\.4/g)).toHaveLength(3);
		for (const [i, sent] of received.entries()) {
			const raw = await run(["request", sessionId, "--turn", String(i + 1), "--raw"]);
			expect(raw.code).toBe(0);
			expect(raw.stderr).toBe("");
			expect(raw.stdout).toBe(`${sent.raw}\n`);
		}
		const last = await run(["request", sessionId, "--last", "--json"]);
		const report = JSON.parse(last.stdout) as { exact: boolean; requestId: string; body: unknown; origin: unknown };
		expect(report.exact).toBe(true);
		expect(report.origin).toEqual({ kind: "rebuilt" });
		expect(report.body).toEqual(received[2]?.body);
		const byId = await run(["request", sessionId, report.requestId]);
		expect(byId.code).toBe(0);
		expect(byId.stdout).toContain("openai/gpt-5.4 · stop");
		expect(byId.stdout).toContain("exact: rebuilt from the session");
		expect(byId.stdout).toContain("context file");
		expect(byId.stdout).toContain("result bash");
		expect(byId.stdout).not.toContain("sk-test-abcdefgh12345678");
	});

	it("a request that does not exist is an error (exit 2) naming gar show; a bad selector is a usage error", async () => {
		const { run, sessionId } = await session();
		const missing = await run(["request", sessionId, "run_nope.1"]);
		expect(missing.code).toBe(2);
		expect(missing.stderr).toContain(`gar show ${sessionId}`);
		const far = await run(["request", sessionId, "--turn", "9"]);
		expect(far.code).toBe(2);
		expect(far.stderr).toContain("--turn takes 1 to 3");
		expect((await run(["request", sessionId, "--turn", "x"])).code).toBe(2);
		expect((await run(["request", sessionId, "--last", "--turn", "1"])).code).toBe(2);
		expect((await run(["request", sessionId, "--raw"])).stderr).toContain("name it");
	});

	it("gar context: the next request by kind, the free space, the largest items and a context file warning", async () => {
		const { run, sessionId } = await session();
		const text = await run(["context", sessionId]);
		expect(text.code).toBe(0);
		expect(text.stdout).toContain("Context of the next request · openai/gpt-5.4");
		expect(text.stdout).toMatch(/of 1\.1M \(<?\d+%\) · [\d.]+[kM] free/);
		expect(text.stdout).toContain("tool results: bash");
		expect(text.stdout).toContain("largest items");
		expect(text.stdout).toContain('bash {"command":"echo hi"}');
		expect(text.stdout).toContain("⚠ the context file");
		const json = JSON.parse((await run(["context", sessionId, "--json"])).stdout) as {
			window: number;
			total: number;
			largest: { entryId: string | null }[];
			warnings: string[];
		};
		expect(json.window).toBe(1_050_000);
		expect(json.total).toBeGreaterThan(0);
		expect(json.largest.some((item) => item.entryId !== null)).toBe(true);
		expect(json.warnings).toHaveLength(1);
	});
});
