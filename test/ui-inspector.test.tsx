import { render } from "ink-testing-library";
import { beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import type { AssistantMessage, Usage } from "../src/llm/types.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { firstContact } from "../src/ui/connect.js";
import { App, type AppInfo } from "../src/ui/screens/App.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { describeActivity, liveSpeed } from "../src/ui/views/activity.js";
import { fitParts, packParts } from "../src/ui/views/fit-parts.js";
import { reduce } from "../src/view/reducer.js";
import { initialView, type ViewState } from "../src/view/state.js";

beforeAll(loadMarkdown);

const info: AppInfo = {
	version: "0.1.0",
	cwd: "~/project",
	branch: null,
	sessionId: () => "k3v9q0x2m7ab",
	sessionName: () => undefined,
	sessionBranch: () => "1 of 1",
	running: () => false,
};
const noop = { submit: () => {}, abort: () => {}, exit: () => {} };

/** The frame of the app showing `view` at `columns` × `rows`. */
function frame(view: ViewState, columns = 120, rows = 20): string {
	const store = new UiStore(view);
	const { lastFrame, unmount } = render(
		<App store={store} input={new InputModel()} info={info} actions={noop} size={{ columns, rows }} />,
	);
	const out = lastFrame() ?? "";
	unmount();
	return out;
}

const reply = (usage: Usage, text = "Done."): AssistantMessage => ({
	role: "assistant",
	content: [{ type: "text", text }],
	provider: "anthropic",
	model: "claude-sonnet-4-5",
	usage,
	stopReason: "stop",
});

/** One run of one reply with `usage` and `costUsd`, folded into a fresh view. */
function oneRun(usage: Usage, costUsd: number | null, model = "claude-sonnet-4-5"): ViewState {
	const events: AgentEvent[] = [
		{ type: "agent_start", runId: "r1", provider: "anthropic", model, maxTurns: 50, contextWindow: 200_000 },
		{ type: "user_message", message: { role: "user", content: "go" }, source: "prompt" },
		{ type: "turn_start", turn: 1, maxTurns: 50 },
		{ type: "message_start", turn: 1, requestId: "r1.1" },
		{ type: "text_delta", delta: "Done.", contentIndex: 0 },
		{
			type: "message_end",
			requestId: "r1.1",
			turn: 1,
			message: reply(usage),
			costUsd,
			timing: { startedAt: 0, firstTokenMs: 300, durationMs: 1300 },
			retries: 0,
		},
		{ type: "turn_end", turn: 1, stopReason: "stop" },
		{ type: "agent_end", runId: "r1", stopReason: "done", turns: 1, usage, costUsd, durationMs: 1300 },
	];
	let view = initialView({ provider: "anthropic", model, contextWindow: 200_000 });
	for (const [i, event] of events.entries()) view = reduce(view, event, 1000 * i);
	return view;
}

describe("one meaning of ↑ in the inspector, the status bar and the run's footer", () => {
	it("counts cache reads and writes in the session figure, so it is never smaller than one turn's", () => {
		const view = oneRun({ input: 10, output: 5, cacheRead: 12_000, cacheWrite: 400 }, 0.0042);
		const wide = frame(view);
		expect(wide).toMatch(/│ tokens\s+↑12\.4k ↓5 {2}\(turn ↑12\.4k\)/);
		expect(wide).toMatch(/│\s+cache r 12k w 400/);
		expect(wide).toContain("done · 1 turn · ↑12.4k ↓5 · $0.0042 · 1.3 s");
		// Below 100 columns the same figures go to the status bar.
		expect(frame(view, 90).split("\n")[0]).toContain("│ ↑12.4k ↓5 │ $0.0042 │");
	});
});

describe("the usage of a reply cut before its usage report", () => {
	it("is shown as an estimate in the inspector, the status bar and the run's footer", () => {
		const usage = { input: 1200, output: 60, cacheRead: 0, cacheWrite: 0, estimated: true };
		const view = oneRun(usage, 0.0033);
		const wide = frame(view);
		expect(wide).toMatch(/│ tokens\s+↑~1\.2k ↓~60 {2}\(turn ↑~1\.2k\)/);
		expect(wide).toMatch(/│ cost\s+~\$0\.0033 {2}\(run ~\$0\.0033\)/);
		expect(wide).toContain("done · 1 turn · ↑~1.2k ↓~60 · ~$0.0033 · 1.3 s");
		expect(frame(view, 90).split("\n")[0]).toContain("│ ↑~1.2k ↓~60 │ ~$0.0033 │");
	});
});

/** A view after `events`, each at the time given with it. */
function at(events: [number, AgentEvent][]): ViewState {
	let view = initialView({ provider: "openai", model: "gpt-5", contextWindow: 400_000 });
	for (const [time, event] of events) view = reduce(view, event, time);
	return view;
}
const start: [number, AgentEvent][] = [
	[0, { type: "agent_start", runId: "r1", provider: "openai", model: "gpt-5", maxTurns: 50, contextWindow: null }],
	[0, { type: "turn_start", turn: 1, maxTurns: 50 }],
	[0, { type: "message_start", turn: 1, requestId: "r1.1" }],
];
const delta = (text: string): AgentEvent => ({ type: "text_delta", delta: text, contentIndex: 0 });

describe("the live state", () => {
	it("says when a streaming reply has sent nothing for a while, and the idle timeout that will end it", () => {
		const view = at([...start, [400, delta("Let me check. ")], [1000, delta("This is a long")]]);
		expect(describeActivity(view, 1500, 300_000)).toMatch(/^streaming · \d+ tok\/s$/);
		expect(describeActivity(view, 5900, 300_000)).toMatch(/^streaming · \d+ tok\/s$/);
		expect(describeActivity(view, 13_000, 300_000)).toBe("no data for 12 s (idle timeout 300 s)");
		expect(describeActivity(view, 13_000, null)).toBe("no data for 12 s");
		// A stall does not drag the speed down: it is the speed while data came.
		expect(liveSpeed(view, 13_000)).toBe(liveSpeed(view, 1000));
		// New data ends the stall.
		const again = reduce(view, delta(" reply."), 13_100);
		expect(describeActivity(again, 13_200, 300_000)).toMatch(/^streaming · \d+ tok\/s$/);
	});

	it("counts a retry's wait down, then says it is waiting for the model", () => {
		const retry: AgentEvent = {
			type: "retry",
			requestId: "r1.1",
			turn: 1,
			attempt: 1,
			maxAttempts: 3,
			reason: "HTTP 529 overloaded",
			delayMs: 5000,
			errorKind: "overloaded",
		};
		const view = at([...start, [10_000, retry]]);
		expect(describeActivity(view, 10_000)).toBe("retry 1/3 in 5 s");
		expect(describeActivity(view, 11_200)).toBe("retry 1/3 in 4 s");
		expect(describeActivity(view, 14_100)).toBe("retry 1/3 in 1 s");
		expect(describeActivity(view, 16_000)).toBe("retry 1/3 · waiting for the model 1.0 s");
	});

	it("shows no speed for a reply that arrived too fast to measure (not 27,273 tok/s)", () => {
		const end = (durationMs: number): AgentEvent => ({
			type: "message_end",
			requestId: "r1.1",
			turn: 1,
			message: reply({ input: 100, output: 300, cacheRead: 0, cacheWrite: 0 }),
			costUsd: 0.001,
			timing: { startedAt: 0, firstTokenMs: 300, durationMs },
			retries: 0,
		});
		const burst = at([...start, [300, delta("x".repeat(1200))], [311, end(311)]]);
		expect(burst.speed.tokensPerSec).toBeNull();
		expect(frame(burst)).toMatch(/│ speed\s+TTFT 300 ms · –/);
		// While streaming, too: under the minimum the speed is unknown.
		expect(liveSpeed(at([...start, [300, delta("x".repeat(1200))]]), 310)).toBeNull();
		const steady = at([...start, [300, delta("x".repeat(1200))], [2300, end(2300)]]);
		expect(steady.speed.tokensPerSec).toBe(150);
	});
});

describe("the first frame", () => {
	it("shows an unpriced model's cost as unknown at once, not $0.00 until the first reply", () => {
		const unpriced = frame(initialView({ provider: "openai", model: "qwen3-coder", contextWindow: null }));
		expect(unpriced).toMatch(/│ cost\s+unknown/);
		expect(frame(initialView({ provider: "openai", model: "qwen3-coder" }), 90).split("\n")[0]).toContain(
			"│ idle │ ↑0 ↓0 │ unknown │",
		);
		expect(frame(initialView({ provider: "openai", model: "gpt-5" }))).toMatch(/│ cost\s+\$0\.00/);
		// A run, and a switch to a priced model before anything was billed, say the same.
		let view = initialView({ provider: "openai", model: "qwen3-coder" });
		const start: AgentEvent = {
			type: "agent_start",
			runId: "r1",
			provider: "openai",
			model: "qwen3-coder",
			maxTurns: 50,
			contextWindow: null,
		};
		view = reduce(view, start, 0);
		expect(frame(view)).toMatch(/│ cost\s+unknown {2}\(run unknown\)/);
		view = reduce(view, { type: "model_change", provider: "openai", model: "gpt-5", contextWindow: 400_000 }, 1);
		expect(frame(view)).toMatch(/│ cost\s+\$0\.00/);
	});

	it("has no empty model field before the config has named the model", () => {
		const view = initialView({ provider: "", model: "" });
		const wide = frame(view);
		expect(wide.split("\n")[0]).toMatch(/^ gar 0\.1\.0 │ ~\/project │ k3v9q0x2m7ab/);
		expect(wide).toMatch(/│ model\s+–/);
		expect(wide).toMatch(/│ cost\s+–/);
		expect(frame(view, 90).split("\n")[0]).toMatch(/^ gar 0\.1\.0 │ idle │ ↑0 ↓0 │ – │/);
	});
});

describe("names from config, disk and session files", () => {
	it("show a hostile model name's escape sequences in the status bar and the inspector, never obey them", () => {
		const hostile = "m\u001b]0;pwned\u0007\u001b[2J";
		const shown = frame(oneRun({ input: 10, output: 5, cacheRead: 0, cacheWrite: 0 }, null, hostile), 140);
		expect(shown).not.toContain("\u001b]0;");
		expect(shown).not.toContain("\u001b[2J");
		expect(shown).toContain("m␛]0;pwned^G␛[2J");
		expect(shown.split("\n")[0]).toContain("m␛]0;pwned^G␛[2J"); // the status bar
		expect(shown).toMatch(/model\s*anthropic\/m␛\]0;pwned\^G␛\[2J/); // the inspector
	});
});

describe("sub-agents in the inspector", () => {
	it("keeps self, sub-agents (as reported) and total apart, and splits the latest request", () => {
		let view = oneRun({ input: 1000, output: 100, cacheRead: 0, cacheWrite: 0 }, 0.01);
		const details = {
			kind: "bash" as const,
			command: "gar -p x",
			cwd: "/",
			exitCode: 0,
			signal: null,
			durationMs: 1,
			timedOut: false,
			aborted: false,
			truncated: false,
			totalLines: 1,
			totalBytes: 1,
			subagents: {
				reportedBy: "child" as const,
				runs: [],
				totals: { runs: 2, usage: { input: 30_000, output: 900, cacheRead: 0, cacheWrite: 0 }, costUsd: 0.024 },
			},
		};
		view = reduce(
			view,
			{
				type: "tool_end",
				callId: "c",
				name: "bash",
				outcome: "done",
				content: "",
				details,
				isError: false,
				durationMs: 1,
			},
			0,
		);
		const shown = frame(view);
		expect(shown).toMatch(/│ tokens\s+↑1k ↓100/);
		expect(shown).toMatch(/│ cost\s+\$0\.010/);
		expect(shown).toMatch(/│ subagents 2 runs ↑30k ↓900 · \$0\.024/);
		expect(shown).toMatch(/│ total\s+↑31k ↓1k · \$0\.034/);
	});

	it("shows no sub-agent rows without sub-agents", () => {
		const shown = frame(oneRun({ input: 1000, output: 100, cacheRead: 0, cacheWrite: 0 }, 0.01));
		expect(shown).not.toContain("subagents");
		expect(shown).not.toMatch(/│ total/);
	});
});

describe("the layout", () => {
	it("cuts the inspector's last rows off on a short terminal instead of drawing rows over each other", () => {
		const rows = frame(initialView({ provider: "openai", model: "gpt-5" }), 120, 12)
			.split("\n")
			.map((row) => row.slice(row.indexOf("│") + 2).trimEnd());
		expect(rows.slice(1, 10)).toEqual([
			"state     ● idle",
			"turn      –",
			"tokens    ↑0 ↓0",
			"          cache r 0 w 0",
			"cost      $0.00",
			"context   0 (window unknown)",
			"speed     TTFT – · –",
			"tools     none yet",
			"model     openai/gpt-5",
		]);
	});

	it("keeps a blank column between the chat and the inspector's border", () => {
		// One unbroken word fills every row of the chat to its last column.
		const long = "x".repeat(400);
		let view = initialView({ provider: "openai", model: "gpt-5" });
		view = reduce(view, { type: "user_message", message: { role: "user", content: long }, source: "prompt" }, 0);
		for (const columns of [100, 120]) {
			const rows = frame(view, columns).split("\n").slice(1, 6);
			for (const row of rows) {
				expect(row.slice(columns - 47, columns - 43)).toBe("x │ ");
			}
		}
	});
});

describe("the first-contact notice (no API key)", () => {
	it("says each thing once, one whole sentence a line", () => {
		const missing =
			"no API key for anthropic: set ANTHROPIC_API_KEY (or api_key_env in [providers.anthropic]), or pick another provider with --provider";
		const text = firstContact(missing, "anthropic");
		expect(text.split("\n")).toEqual([
			"Welcome to gar. No API key for anthropic: set ANTHROPIC_API_KEY (or api_key_env in [providers.anthropic]), or pick another provider with --provider, then start gar again.",
			"For OpenAI, set OPENAI_API_KEY and start gar with --provider openai; a local OpenAI-compatible server such as Ollama needs no key: gar --provider openai --base-url http://localhost:11434/v1 --model qwen3",
			"Try `gar demo` to watch a scripted session without a key.",
		]);
		expect(text.match(/ANTHROPIC_API_KEY/g)).toHaveLength(1);
		const openai = firstContact("no API key for openai: set OPENAI_API_KEY (…), or pick another provider", "openai");
		expect(openai.match(/OPENAI_API_KEY/g)).toHaveLength(1);
		expect(openai).toContain("For Claude, set ANTHROPIC_API_KEY and start gar with --provider anthropic;");
	});
});

describe("hints at 80, 100 and 120 columns", () => {
	it("the first screen's keys wrap whole, never cut", () => {
		for (const columns of [80, 100, 120]) {
			const text = frame(initialView({ provider: "openai", model: "gpt-5" }), columns);
			expect(text).not.toContain("…");
			const words = text.replace(/│.*$/gm, "").replace(/\s+/g, " ");
			expect(words).toContain("Type a task and press Enter.");
			for (const key of ["Esc stops a run", "Ctrl+D quits", "Tab inspector", "PgUp/PgDn scroll"]) {
				expect(words).toContain(key);
			}
		}
	});

	it("the queued message's hint stays whole; a long message gives way to it", () => {
		const steer = "please also check the lexer and the parser tests before you finish";
		let view = initialView({ provider: "openai", model: "gpt-5" });
		view = reduce(view, { type: "queue", steers: [steer], followUps: [] }, 0);
		for (const columns of [80, 100, 120]) {
			const row = frame(view, columns)
				.split("\n")
				.find((line) => line.startsWith("⏳"));
			expect(row).toMatch(/^⏳ steer: please also check .*\(↑ on an empty input edits it\)$/);
		}
	});

	it("the status bar leaves out what does not fit, whole, the live state last, instead of cutting it", () => {
		const t = Date.now() - 12_400;
		const view = at([...start.map(([, e]): [number, AgentEvent] => [t, e]), [t + 400, delta("Let me check. ")]]);
		view.model = "claude-sonnet-5-5-20260101";
		const store = new UiStore(view);
		store.idleTimeoutMs = () => 300_000;
		const { lastFrame, unmount } = render(
			<App store={store} input={new InputModel()} info={info} actions={noop} size={{ columns: 80, rows: 12 }} />,
		);
		const bar = (lastFrame() ?? "").split("\n")[0] ?? "";
		unmount();
		// The state, the model and the cost fit; the version, the tokens, the path and the session do not.
		expect(bar.trimEnd()).toBe(" claude-sonnet-5-5-20260101 │ no data for 12 s (idle timeout 300 s) │ $0.00");
	});
});

describe("packing and fitting parts", () => {
	it("packs whole parts on as few rows as they need; fits whole parts on one row", () => {
		expect(packParts(["aaa", "bbb", "ccc"], 9)).toEqual(["aaa · bbb", "ccc"]);
		expect(packParts(["a very long part"], 8)).toEqual(["a very …"]);
		expect(fitParts(["gar 0.1.0", "a-long-model-name", "idle", "~/project"], 30, " │ ")).toEqual([
			"gar 0.1.0",
			"a-long-model-name",
		]);
		expect(fitParts(["gar 0.1.0", "a-long-model-name", "idle"], 24, " │ ")).toEqual(["gar 0.1.0", "idle"]);
		// By rank, shown in order.
		expect(fitParts(["gar 0.1.0", "model", "a long live state"], 26, " │ ", [2, 1, 0])).toEqual([
			"model",
			"a long live state",
		]);
	});
});
