// Sub-agents roll up, for real: a parent `gar -p` whose bash calls run the built `gar -p` against the same test server,
// twice, the second nesting a grandchild. The parent's JSON result holds the children's exact usage and cost (as they
// reported them), kept apart from its own, and self + sub-agents = total.
import { afterEach, describe, expect, it } from "vitest";
import { costUsd } from "../src/llm/models.js";
import { addUsage, EMPTY_USAGE, type Usage } from "../src/llm/types.js";
import { loadSession } from "../src/session/index.js";
import { GAR_BIN, runGar, tempHome } from "./support/cli.js";
import { type RecordedRequest, startWireServer, type WireServer, type WireTurn } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

type Body = { messages: { role: string; content?: unknown }[] };
const MODEL = "gpt-5.4";

/** Who is asking (the first user message names the task) and how many tool results it has seen. */
function caller(req: RecordedRequest): { task: string; results: number } {
	const messages = (req.body as Body).messages;
	const task = String(messages.find((m) => m.role === "user")?.content ?? "");
	return { task, results: messages.filter((m) => m.role === "tool").length };
}

const usageOf = {
	parent1: { input: 1000, output: 30, cacheRead: 0, cacheWrite: 0 },
	parent2: { input: 1100, output: 30, cacheRead: 200, cacheWrite: 0 },
	parent3: { input: 1200, output: 10, cacheRead: 400, cacheWrite: 0 },
	child1: { input: 300, output: 20, cacheRead: 0, cacheWrite: 0 },
	child2a: { input: 400, output: 25, cacheRead: 0, cacheWrite: 0 },
	child2b: { input: 500, output: 15, cacheRead: 100, cacheWrite: 0 },
	grandchild: { input: 200, output: 5, cacheRead: 0, cacheWrite: 0 },
} satisfies Record<string, Usage>;

describe("sub-agents roll up", () => {
	it("a parent's -p json holds its children's and grandchild's exact usage and cost; self + sub-agents = total", async () => {
		let url = "";
		const gar = (task: string) =>
			`$GAR -p --no-stdin --provider openai --model ${MODEL} --base-url ${url}/v1 --output json "${task}" > /dev/null`;
		const script = (req: RecordedRequest): WireTurn => {
			const { task, results } = caller(req);
			const bash = (id: string, command: string): WireTurn => ({
				toolCalls: [{ id, name: "bash", args: { command } }],
			});
			if (task.startsWith("PARENT")) {
				if (results === 0) return { ...bash("p1", gar("CHILD one")), usage: usageOf.parent1 };
				if (results === 1) return { ...bash("p2", gar("CHILD two")), usage: usageOf.parent2 };
				return { text: "both children are done", usage: usageOf.parent3 };
			}
			if (task.startsWith("CHILD one")) return { text: "one", usage: usageOf.child1 };
			if (task.startsWith("CHILD two")) {
				if (results === 0) return { ...bash("c1", gar("GRANDCHILD")), usage: usageOf.child2a };
				return { text: "two", usage: usageOf.child2b };
			}
			return { text: "grand", usage: usageOf.grandchild };
		};
		server = await startWireServer(script);
		url = server.url;
		const { project, env } = tempHome();
		const run = await runGar(
			["-p", "--provider", "openai", "--model", MODEL, "--base-url", `${url}/v1`, "--output", "json", "PARENT task"],
			{ env: { ...env, GAR: `${process.execPath} ${GAR_BIN}` }, cwd: project, timeoutMs: 30_000 },
		);
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		const result = JSON.parse(run.stdout) as {
			costUsd: number;
			usage: Usage;
			subagents: { runs: number; usage: Usage; costUsd: number; reportedBy: string };
			totalCostUsd: number;
			sessionId: string;
		};
		const sum = (...parts: Usage[]) => parts.reduce((a, b) => addUsage(a, b), EMPTY_USAGE);
		const round = (n: number) => Math.round(n * 1e6) / 1e6;
		const cost = (usage: Usage) => costUsd(MODEL, usage) ?? Number.NaN;
		const self = [usageOf.parent1, usageOf.parent2, usageOf.parent3];
		const children = [usageOf.child1, usageOf.child2a, usageOf.child2b, usageOf.grandchild];
		// Self: the parent's own three calls only.
		expect(result.usage).toEqual(sum(...self));
		expect(result.costUsd).toBe(round(self.map(cost).reduce((a, b) => a + b)));
		// Sub-agents: two children and the grandchild, their exact figures, apart from the parent's.
		expect(result.subagents.runs).toBe(3);
		expect(result.subagents.reportedBy).toBe("child");
		expect(result.subagents.usage).toEqual(sum(...children));
		expect(result.subagents.costUsd).toBe(round(children.map(cost).reduce((a, b) => a + b)));
		expect(result.totalCostUsd).toBe(round(result.costUsd + result.subagents.costUsd));
		// The parent's session keeps each command's runs in the result's details (with the child's session), and the
		// model never read them.
		const sessions = JSON.parse((await runGar(["sessions", "--json"], { env, cwd: project })).stdout) as {
			id: string;
			file: string;
		}[];
		const parent = loadSession(sessions.find((s) => s.id === result.sessionId)?.file ?? "");
		const details = parent.entries.flatMap((e) =>
			e.type === "tool_result" ? [e.details as { subagents?: { runs: { sessionFile: string }[] } }] : [],
		);
		expect(details.map((d) => d.subagents?.runs.length)).toEqual([1, 1]);
		expect(details[1]?.subagents?.runs[0]?.sessionFile).toMatch(/\.jsonl$/);
		const run2 = parent.entries.find((e) => e.type === "run");
		expect(run2?.type === "run" && run2.subagents?.runs).toBe(3);
		const parentBodies = server.requests.filter((r) => caller(r).task.startsWith("PARENT"));
		expect(JSON.stringify(parentBodies.at(-1)?.body)).not.toContain("sessionFile");
	});
});
