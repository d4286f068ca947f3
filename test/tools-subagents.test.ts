// Sub-agents roll up (src/tools/subagents.ts, the bash tool, src/conversation/parent-report.ts): each command gets a
// private report file; a child's line is read when the command ends and kept in the result's details, never in what
// the model reads; garbage, huge lines, extra lines and absurd figures are ignored with a reason and cannot crash the
// parent; a child writes only into a private file a parent made.
import { chmodSync, existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import { spendReport } from "../src/conversation/parent-report.js";
import { createBashTool } from "../src/tools/bash.js";
import {
	appendReport,
	MAX_REPORT_LINE,
	MAX_REPORTS,
	openInbox,
	parseReports,
	SUBAGENT_ENV,
	type SubagentReport,
} from "../src/tools/subagents.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();
const usage = { input: 100, output: 20, cacheRead: 5, cacheWrite: 0 };
const report = (over: Partial<SubagentReport> = {}): SubagentReport => ({
	sessionId: "abc",
	sessionFile: "/tmp/s.jsonl",
	provider: "openai",
	model: "gpt-5.4",
	turns: 2,
	usage,
	costUsd: 0.01,
	durationMs: 1200,
	ok: true,
	...over,
});
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe("the report file a command's sub-agents write into", () => {
	it("is a new 0600 file in a new 0700 folder per command, removed once read", () => {
		const inbox = openInbox(tmp());
		const file = inbox?.env[SUBAGENT_ENV] ?? "";
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
		expect(appendReport(file, report())).toBe(true);
		const runs = inbox?.collect();
		expect(runs?.runs).toEqual([report()]);
		expect(runs?.totals).toEqual({ runs: 1, usage, costUsd: 0.01 });
		expect(runs?.reportedBy).toBe("child");
		expect(existsSync(dirname(file))).toBe(false);
	});

	it("adds the nested runs a child reports to the totals; one unknown cost makes the total unknown", () => {
		const nested = { runs: 2, usage: { input: 10, output: 1, cacheRead: 0, cacheWrite: 0 }, costUsd: 0.002 };
		const runs = parseReports(line(report({ subagents: nested })) + line(report({ costUsd: null })), false);
		expect(runs?.totals.runs).toBe(4);
		expect(runs?.totals.usage).toEqual({ input: 210, output: 41, cacheRead: 10, cacheWrite: 0 });
		expect(runs?.totals.costUsd).toBeNull();
	});

	it("ignores garbage, huge lines, absurd or missing figures and lines past the limit, each with a reason", () => {
		const text = [
			"not json at all",
			"[1,2]",
			JSON.stringify(report({ costUsd: -1 })),
			JSON.stringify({ ...report(), usage: { input: 1e15, output: 0, cacheRead: 0, cacheWrite: 0 } }),
			JSON.stringify({ ...report(), turns: "many" }),
			JSON.stringify({ ...report(), subagents: { runs: 1, usage: "lots", costUsd: 0 } }),
			JSON.stringify({ ...report(), sessionFile: "x".repeat(5000) }),
			`{"pad":"${"x".repeat(MAX_REPORT_LINE)}"}`,
			JSON.stringify({ ...report(), extra: "kept out" }),
		].join("\n");
		const runs = parseReports(`${text}\n`, false);
		expect(runs?.runs).toHaveLength(1);
		expect(runs?.runs[0]).not.toHaveProperty("extra");
		expect(runs?.ignored).toEqual([
			"line 1: not JSON",
			"line 2: not a JSON object",
			"line 3: bad costUsd",
			"line 4: bad usage",
			"line 5: bad turns",
			"line 6: bad subagents",
			"line 7: bad sessionFile",
			`line 8: longer than ${MAX_REPORT_LINE} characters`,
		]);
		const many = Array.from({ length: MAX_REPORTS + 5 }, () => line(report())).join("");
		const capped = parseReports(many, false);
		expect(capped?.runs).toHaveLength(MAX_REPORTS);
		expect(capped?.ignored).toEqual([`more than ${MAX_REPORTS} reports: the rest were not read`]);
		// A file cut at the read limit: its last, partial line is not read as a report.
		expect(parseReports(`${line(report())}{"sessionId":"ab`, true)?.runs).toHaveLength(1);
		expect(parseReports("", false)).toBeUndefined();
	});

	it("a child writes only into a private regular file a parent made: never a link, a shared file or a new file", () => {
		const dir = tmp();
		const shared = join(dir, "shared.jsonl");
		writeFileSync(shared, "");
		chmodSync(shared, 0o644);
		expect(appendReport(shared, report())).toBe(false);
		const mine = join(dir, "mine.jsonl");
		writeFileSync(mine, "", { mode: 0o600 });
		const link = join(dir, "link.jsonl");
		symlinkSync(mine, link);
		expect(appendReport(link, report())).toBe(false);
		expect(appendReport(join(dir, "absent.jsonl"), report())).toBe(false);
		expect(existsSync(join(dir, "absent.jsonl"))).toBe(false);
		expect(readFileSync(mine, "utf8")).toBe("");
		expect(appendReport(mine, report())).toBe(true);
	});
});

describe("the bash tool and its sub-agents", () => {
	const bash = (env: NodeJS.ProcessEnv) => createBashTool({ cwd: tmp(), env, reportDir: tmp(), outputDir: tmp() });
	const ctx = { signal: new AbortController().signal };

	it("gives each command its own report file, keeps the reports in the details and out of the model's content", async () => {
		const tool = bash({ PATH: process.env.PATH, [SUBAGENT_ENV]: "/a/parent/file" });
		const write = `printf '%s\\n' '${JSON.stringify(report())}' >> "$${SUBAGENT_ENV}"; echo "file: $${SUBAGENT_ENV}"`;
		const result = await tool.execute({ command: write }, ctx);
		expect(result.content).not.toContain("gpt-5.4");
		expect(result.content).not.toContain("/a/parent/file");
		const details = result.details;
		expect(details?.kind === "bash" && details.subagents?.runs).toEqual([report()]);
		expect(details?.kind === "bash" && details.subagents?.totals).toEqual({ runs: 1, usage, costUsd: 0.01 });
		const quiet = await tool.execute({ command: "echo no gar here" }, ctx);
		expect(quiet.details?.kind === "bash" && quiet.details.subagents).toBeUndefined();
	});

	it("a hostile command's garbage and fake totals cannot crash it, and are named", async () => {
		const tool = bash({ PATH: process.env.PATH });
		const command = `head -c 3000000 /dev/zero | tr '\\0' 'x' >> "$${SUBAGENT_ENV}"; echo ok`;
		const result = await tool.execute({ command }, ctx);
		expect(result.isError).toBe(false);
		const sub = result.details?.kind === "bash" ? result.details.subagents : undefined;
		expect(sub?.runs).toEqual([]);
		expect(sub?.totals.runs).toBe(0);
		expect(sub?.ignored).toEqual([expect.stringMatching(/^the file grew past \d+ bytes: the rest was not read$/)]);
	});
});

describe("what a child gar reports", () => {
	it("its own calls and summary requests, its turns and time, its sub-agents apart, and its last session", () => {
		const channel = new EventChannel();
		const file = join(tmp(), "r.jsonl");
		const spend = spendReport(file);
		const session = { file: "/s/child.jsonl", session: { header: { id: "child1" } } };
		spend.follow({ channel, session });
		const end = { type: "agent_end" as const, runId: "r", stopReason: "done" as const, turns: 2, usage, costUsd: 0.02 };
		channel.emit({
			type: "agent_start",
			runId: "r",
			provider: "openai",
			model: "gpt-5.4",
			maxTurns: 5,
			contextWindow: null,
		});
		channel.emit({
			type: "message_end",
			requestId: "r.1",
			turn: 1,
			message: { role: "assistant", content: [], provider: "openai", model: "gpt-5.4", usage, stopReason: "stop" },
			costUsd: 0.01,
			timing: { startedAt: 0, firstTokenMs: null, durationMs: 10 },
			retries: 0,
		});
		channel.emit({ type: "compaction_end", ok: true, tokensBefore: 10, tokensAfter: 5, usage, costUsd: 0.005 });
		const nested = { runs: 1, usage, costUsd: 0.5 };
		channel.emit({ ...end, durationMs: 900, subagents: nested });
		expect(spend.report()).toEqual({
			sessionId: "child1",
			sessionFile: "/s/child.jsonl",
			provider: "openai",
			model: "gpt-5.4",
			turns: 2,
			usage: { input: 200, output: 40, cacheRead: 10, cacheWrite: 0 },
			costUsd: 0.015,
			durationMs: 900,
			ok: true,
			subagents: nested,
		});
		// Not a parent's private file: nothing is written, nothing is created.
		expect(spend.write()).toBe(false);
		expect(existsSync(file)).toBe(false);
	});
});

describe("self, sub-agents and total on every screen", () => {
	const runs = {
		reportedBy: "child" as const,
		runs: [report()],
		totals: { runs: 2, usage: { input: 30_000, output: 1000, cacheRead: 0, cacheWrite: 0 }, costUsd: 0.024 },
	};
	const details = {
		kind: "bash" as const,
		command: "gar -p x",
		cwd: "/",
		exitCode: 0,
		signal: null,
		durationMs: 10,
		timedOut: false,
		aborted: false,
		truncated: false,
		totalLines: 1,
		totalBytes: 1,
		subagents: runs,
	};

	it("the -p text status line (stderr) and the line mode's tool line keep them apart; billed tokens only", async () => {
		const { PrintWriter, toPrintResult } = await import("../src/output/print-output.js");
		const { PassThrough } = await import("node:stream");
		const stdout = new PassThrough();
		const stderr = new PassThrough();
		let out = "";
		let err = "";
		stdout.setEncoding("utf8").on("data", (d: string) => {
			out += d;
		});
		stderr.setEncoding("utf8").on("data", (d: string) => {
			err += d;
		});
		const writer = new PrintWriter("text", stdout, stderr);
		const run = {
			runId: "r",
			stopReason: "done" as const,
			turns: 1,
			usage,
			costUsd: 0.01,
			durationMs: 5,
			text: "answer",
			subagents: runs.totals,
		};
		const result = toPrintResult(run, null);
		expect(result.totalCostUsd).toBe(0.034);
		expect(result.subagents).toEqual({ ...runs.totals, reportedBy: "child" });
		await writer.finish(result);
		expect(out).toBe("answer\n");
		expect(err).toBe(
			"gar: cost $0.010 self · 2 sub-agent runs · 31k tokens · $0.024 (as the sub-agents reported) · $0.034 total\n",
		);
		// Without sub-agents nothing changes on stderr, and the total is the run's own cost.
		const plain = toPrintResult({ ...run, subagents: undefined }, null);
		expect(plain.subagents).toBeUndefined();
		expect(plain.totalCostUsd).toBe(0.01);
		const { toolLine } = await import("../src/output/transcript.js");
		const line = toolLine({
			kind: "tool",
			key: "k",
			callId: "c",
			name: "bash",
			argsText: "",
			args: { command: "gar -p x" },
			status: "done",
			details,
		});
		expect(line).toContain("⤷ 2 sub-agent runs · 31k tokens · $0.024 (as reported)");
	});

	it("the view keeps the session's and the run's sub-agent totals apart from their own", async () => {
		const { reduce } = await import("../src/view/reducer.js");
		const { initialView } = await import("../src/view/state.js");
		let view = initialView({ provider: "openai", model: "gpt-5.4" });
		view = reduce(
			view,
			{ type: "agent_start", runId: "r", provider: "openai", model: "gpt-5.4", maxTurns: 5, contextWindow: null },
			0,
		);
		const end = {
			type: "tool_end" as const,
			callId: "c",
			name: "bash",
			outcome: "done" as const,
			content: "ok",
			isError: false,
			durationMs: 1,
		};
		view = reduce(view, { ...end, details }, 1);
		view = reduce(view, { ...end, callId: "d", details }, 2);
		expect(view.subagents.session).toEqual({
			runs: 4,
			usage: { input: 60_000, output: 2000, cacheRead: 0, cacheWrite: 0 },
			costUsd: 0.048,
		});
		expect(view.session.usage).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
		view = reduce(
			view,
			{ type: "agent_start", runId: "r2", provider: "openai", model: "gpt-5.4", maxTurns: 5, contextWindow: null },
			3,
		);
		expect(view.subagents.run.runs).toBe(0);
		expect(view.subagents.session.runs).toBe(4);
	});
});
