// Permission rules on every approval path, through the real setup against the wire server: headless (-p, no one to
// ask), a hook's "ask", the app's question (p saves a rule that applies at once and after a restart), and ACP.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import type { ApprovalRequest } from "../src/agent/loop.js";
import type { AskFn } from "../src/conversation/conversation.js";
import { decisionOf, permissionOptions } from "../src/modes/acp/permission.js";
import { setupRun } from "../src/modes/setup.js";
import { type AcpHarness, startAcp } from "./support/acp-client.js";
import { tempHome } from "./support/cli.js";
import { startWireServer, type WireServer, type WireTurn } from "./support/wire-server.js";

let server: WireServer | undefined;
let acp: AcpHarness | undefined;
afterEach(async () => {
	acp?.child.kill("SIGKILL");
	await acp?.exited;
	acp = undefined;
	await server?.close();
	server = undefined;
});

const bash = (id: string, command: string): WireTurn => ({ toolCalls: [{ id, name: "bash", args: { command } }] });

/** A home whose user config is `config`, and a project; `home.file` is the user config. */
function world(config: string) {
	const home = tempHome();
	const file = join(home.env.XDG_CONFIG_HOME as string, "gar", "config.toml");
	mkdirSync(join(home.env.XDG_CONFIG_HOME as string, "gar"), { recursive: true });
	writeFileSync(file, config);
	return { ...home, file };
}

/** The real setup against the wire server; `ask` answers questions like the app does (none: headless). */
async function run(w: ReturnType<typeof world>, turns: WireTurn[], ask?: AskFn) {
	server = await startWireServer(turns);
	const env = { ...w.env, OPENAI_API_KEY: "test-key" };
	const flags = { cwd: w.project, noSession: true, provider: "openai", baseUrl: server.url, model: "gpt-5" };
	const setup = await setupRun(flags, env, ask ? { ask } : {});
	const events: AgentEvent[] = [];
	setup.channel.subscribe((event) => events.push(event));
	await setup.conversation.run("go");
	setup.conversation.close();
	const ends = events.flatMap((e) => (e.type === "tool_end" ? [[e.callId, e.outcome]] : []));
	const rules = events.flatMap((e) => (e.type === "tool_start" && e.rule ? [[e.callId, e.rule]] : []));
	const notices = events.flatMap((e) => (e.type === "notice" ? [e.message] : []));
	const content = (id: string) =>
		events.flatMap((e) => (e.type === "tool_end" && e.callId === id ? [e.content] : []))[0] ?? "";
	return { ends, rules, notices, content, events };
}

const RULES = `[agent]
approve = true

[[permissions.allow]]
tool = "bash"
prefix = "echo"

[[permissions.deny]]
tool = "bash"
prefix = "rm"
`;

describe("permission rules, headless (-p: no one to ask)", () => {
	it("an allow rule runs what every part of it covers; a deny rule and an uncovered part are denied", async () => {
		const w = world(RULES);
		writeFileSync(join(w.project, "keep.txt"), "x");
		const r = await run(w, [
			bash("a", "echo one && echo two | echo three"),
			bash("b", "echo ok; rm -f keep.txt"),
			bash("c", "echo hi; touch made.txt"),
			{ text: "done" },
		]);
		expect(r.ends).toEqual([
			["a", "done"],
			["b", "denied"],
			["c", "denied"],
		]);
		expect(r.rules).toEqual([["a", `bash "echo" (${w.file}:4)`]]);
		expect(r.content("b")).toBe(
			`This bash call is denied by the rule bash "rm" (${w.file}:8) (it matches \`rm -f keep.txt\`): a deny rule wins over every allow. Do not retry it in another form.`,
		);
		expect(existsSync(join(w.project, "keep.txt"))).toBe(true);
		expect(existsSync(join(w.project, "made.txt"))).toBe(false);
	});

	it("a command gar cannot split is asked about when a deny rule exists, even with approval off (then denied)", async () => {
		const w = world('[[permissions.allow]]\ntool = "bash"\n\n[[permissions.deny]]\ntool = "bash"\nprefix = "rm"\n');
		const r = await run(w, [bash("a", "echo fine"), bash("b", 'touch odd.txt # "'), { text: "done" }]);
		expect(r.ends).toEqual([
			["a", "done"],
			["b", "denied"],
		]);
		expect(existsSync(join(w.project, "odd.txt"))).toBe(false);
	});
});

describe("permission rules and hooks", () => {
	const hook = (decision: string) =>
		`[[hooks.PreToolUse]]\ncommand = "echo '{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"PreToolUse\\",\\"permissionDecision\\":\\"${decision}\\",\\"permissionDecisionReason\\":\\"policy\\"}}'"\n`;

	it("an allow rule answers a hook's ask (headless: else denied); a deny rule wins over a hook's allow", async () => {
		const asked = world(`${hook("ask")}\n[[permissions.allow]]\ntool = "bash"\nprefix = "echo"\n`);
		const r = await run(asked, [bash("a", "echo yes"), bash("b", "touch no.txt"), { text: "done" }]);
		expect(r.ends).toEqual([
			["a", "done"],
			["b", "denied"],
		]);
		expect(r.rules.map(([id]) => id)).toEqual(["a"]);
		const allowed = world(`${hook("allow")}\n[[permissions.deny]]\ntool = "bash"\nprefix = "touch"\n`);
		const s = await run(allowed, [bash("a", "touch no.txt"), { text: "done" }]);
		expect(s.ends).toEqual([["a", "denied"]]);
		expect(existsSync(join(allowed.project, "no.txt"))).toBe(false);
	});
});

describe("permission rules in the app's question", () => {
	it("offers the command's first words; p saves a rule that answers the next call, and the next run after a restart", async () => {
		const w = world("# my config\n[agent]\napprove = true\n");
		const requests: ApprovalRequest[] = [];
		const ask: AskFn = async (request) => {
			requests.push(request);
			return request.prefixes ? { approved: true, prefixes: request.prefixes } : { approved: false };
		};
		const r = await run(
			w,
			[bash("a", "ls -a || node --version"), bash("b", "node --version && ls"), { text: "done" }],
			ask,
		);
		expect(requests.map((q) => q.prefixes)).toEqual([["ls", "node"]]);
		expect(r.ends).toEqual([
			["a", "done"],
			["b", "done"],
		]);
		expect(r.rules).toEqual([["b", `bash "node" (${w.file}:9), bash "ls" (${w.file}:5)`]]);
		expect(r.notices).toContain(`saved [[permissions.allow]] { tool = "bash", prefix = "ls" } to ${w.file}:5`);
		expect(readFileSync(w.file, "utf8")).toBe(
			'# my config\n[agent]\napprove = true\n\n[[permissions.allow]]\ntool = "bash"\nprefix = "ls"\n\n[[permissions.allow]]\ntool = "bash"\nprefix = "node"\n',
		);
		const approvals = r.events
			.filter((e) => e.type === "approval_request")
			.map((e) => e.type === "approval_request" && e.callId);
		expect(approvals).toEqual(["a"]);

		// After a restart the saved rules answer without a question.
		const again: ApprovalRequest[] = [];
		const s = await run(w, [bash("c", "ls -l"), { text: "done" }], async (request) => {
			again.push(request);
			return { approved: false };
		});
		expect(again).toEqual([]);
		expect(s.ends).toEqual([["c", "done"]]);
	});

	it("says which rules allow which parts, and why nothing is offered for a command it cannot cover", async () => {
		const w = world('[agent]\napprove = true\n\n[[permissions.allow]]\ntool = "bash"\nprefix = "git status"\n');
		const requests: ApprovalRequest[] = [];
		await run(
			w,
			[bash("a", "git status && npm test"), bash("b", "git status > out.txt"), { text: "done" }],
			async (request) => {
				requests.push(request);
				return { approved: false };
			},
		);
		expect(requests.map(({ prefixes, ruleNote }) => ({ prefixes, ruleNote }))).toEqual([
			{ prefixes: ["npm test"], ruleNote: `\`git status\` is allowed by bash "git status" (${w.file}:4)` },
			{ prefixes: undefined, ruleNote: "`git status > out.txt` writes a file (> out.txt): no rule allows that" },
		]);
	});
});

describe("permission rules in ACP", () => {
	it("offers allow_prefix with the prefix shown, and the answer saves the rule", async () => {
		expect(permissionOptions("bash", ["npm test"]).map((o) => [o.optionId, o.name, o.kind])).toEqual([
			["allow_once", "Allow", "allow_once"],
			["allow_always", "Allow bash for this session", "allow_always"],
			["allow_prefix", "Always allow commands starting with `npm test`", "allow_always"],
			["reject_once", "Reject", "reject_once"],
			["reject_always", "Reject bash for this session", "reject_always"],
		]);
		const selected = { outcome: "selected", optionId: "allow_prefix" } as const;
		expect(decisionOf(selected, "bash", ["npm test"]).decision).toEqual({ approved: true, prefixes: ["npm test"] });
		// A client cannot pick a prefix the request did not offer.
		expect(decisionOf(selected, "bash").decision.approved).toBe(false);

		const w = world('[[permissions.allow]]\ntool = "bash"\nprefix = "echo"\n');
		server = await startWireServer([bash("a", "echo ran"), bash("b", "touch acp.txt"), { text: "done" }]);
		acp = startAcp({
			env: { ...w.env, OPENAI_API_KEY: "test-key" },
			cwd: w.project,
			args: ["--provider", "openai", "--base-url", server.url, "--approve"],
			permission: () => ({ outcome: { outcome: "selected", optionId: "allow_prefix" } }),
		});
		await acp.initialize();
		const { sessionId } = await acp.connection.agent.request("session/new", { cwd: w.project, mcpServers: [] });
		await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		// The echo ran under the rule without a question; touch asked, with the option, and was allowed by it.
		expect(acp.permissions.map((p) => p.toolCall.toolCallId)).toEqual(["b"]);
		expect(acp.permissions[0]?.options.map((o) => o.name)).toContain("Always allow commands starting with `touch`");
		expect(existsSync(join(w.project, "acp.txt"))).toBe(true);
		expect(readFileSync(w.file, "utf8")).toContain('[[permissions.allow]]\ntool = "bash"\nprefix = "touch"\n');
	});
});
