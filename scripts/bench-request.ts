// The request viewer on a 150k-token request: the report rebuilt from the session (and checked against the recorded
// hash), the document made, and the first frame drawn by the real screen in Ink — target ≤ 200 ms. Then what opening
// the raw JSON and searching it cost. In process, as the app does it (the session is already in memory there).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { createElement } from "react";
import { describeSystem, describeTools } from "../src/agent/request-info.js";
import { requestRecords, requestReport } from "../src/inspect/request-report.js";
import { bodySha256, bodyText, wireBody } from "../src/llm/wire-body.js";
import { buildContext, loadSession, type RequestEntry, SessionWriter } from "../src/session/index.js";
import { App } from "../src/ui/screens/App.js";
import { DocView } from "../src/ui/state/doc-view.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { requestHeader, requestSections, requestTokens } from "../src/view/request-view.js";
import { initialView } from "../src/view/state.js";
import { median } from "./bench-stats.js";
import { writeSyntheticSession } from "./synthetic-session.js";

const TOKENS = 150_000;
const MODEL = "claude-sonnet-4-5";
const SIZE = { columns: 160, rows: 50 };
const info = {
	version: "bench",
	cwd: "~/bench",
	branch: null,
	sessionId: () => null,
	sessionName: () => undefined,
	sessionBranch: () => "–",
	running: () => false,
};

/** A session whose last call sent about TOKENS tokens, with its system prompt and request records (and hash). */
function sessionFile(dir: string): string {
	// About 3,300 tokens per synthetic run of ten entries.
	const file = writeSyntheticSession(dir, Math.ceil(TOKENS / 3300) * 10);
	const writer = SessionWriter.open(file);
	const text = `You are a bench.\n${"Rules of the project. ".repeat(400)}`;
	const system = { text, parts: [{ source: "base" as const, text }] };
	const tools = [{ name: "bash", description: "Run a command.", parameters: { type: "object", properties: {} } }];
	const described = describeSystem(system);
	writer.ensurePrompt({
		hash: described.hash,
		text,
		parts: described.parts.map((part) => ({ ...part, text })),
		toolsHash: describeTools(tools).hash,
		tools,
	});
	const context = buildContext(writer.session);
	const body = wireBody("anthropic", {
		model: MODEL,
		system: text,
		messages: context.messages,
		tools,
		maxTokens: 8192,
	});
	const usage = { input: 1000, output: 200, cacheRead: TOKENS, cacheWrite: 0 };
	const reply = {
		role: "assistant" as const,
		content: [{ type: "text" as const, text: "Done." }],
		provider: "anthropic",
		model: MODEL,
		usage,
		stopReason: "stop" as const,
	};
	writer.appendAssistant(reply, 0.05, "run_bench");
	writer.appendRecord<RequestEntry>({
		type: "request",
		requestId: "run_bench.1",
		runId: "run_bench",
		turn: 1,
		provider: "anthropic",
		model: MODEL,
		promptHash: described.hash,
		toolsHash: describeTools(tools).hash,
		params: { maxTokens: 8192, thinking: null },
		messageCount: context.messages.length,
		messageTokens: 0,
		startedAt: Date.now(),
		ttftMs: 900,
		durationMs: 4000,
		retries: 0,
		stopReason: "stop",
		usage,
		costUsd: 0.05,
		bodySha256: bodySha256(bodyText(body)),
		bodyBytes: Buffer.byteLength(bodyText(body)),
	});
	writer.close();
	return file;
}

/** Resolves once the frame shows `text` (Ink draws on React's next pass). */
async function frameWith(drawn: ReturnType<typeof render>, text: string): Promise<void> {
	const end = performance.now() + 5000;
	while (!(drawn.lastFrame() ?? "").includes(text)) {
		if (performance.now() > end) throw new Error(`bench: no frame with ${text}`);
		await new Promise((resolve) => setImmediate(resolve));
	}
}

/**
 * Opens the viewer as /request does in a running app: the report, the document, the screen over the chat; timed
 * until its first frame is drawn. Then back to the chat.
 */
async function openOnce(app: RunningApp, session: ReturnType<typeof loadSession>, record: RequestEntry) {
	const started = performance.now();
	const report = requestReport({ session, record });
	const doc = new DocView(requestHeader(report), requestSections(report));
	doc.toggle(2);
	const built = performance.now() - started;
	app.store.doc = { doc, title: "Request 1 of 1 · run_bench.1" };
	app.store.openScreen("doc");
	await frameWith(app.drawn, "Messages");
	const ms = performance.now() - started;
	app.store.closeScreen();
	await frameWith(app.drawn, "Type a task");
	return { ms, built, report, doc };
}

type RunningApp = { store: UiStore; drawn: ReturnType<typeof render> };

export async function benchRequest(): Promise<string[]> {
	const dir = mkdtempSync(join(tmpdir(), "gar-bench-request-"));
	try {
		const session = loadSession(sessionFile(dir));
		const record = requestRecords(session).at(-1) as RequestEntry;
		const store = new UiStore(initialView({ provider: "anthropic", model: MODEL }));
		const props = { store, input: new InputModel(), info, actions: { submit() {}, abort() {}, exit() {} }, size: SIZE };
		const app = { store, drawn: render(createElement(App, props)) };
		await openOnce(app, session, record); // warm-up: the viewer's code compiled, as in an app that has run
		const runs = [];
		for (let i = 0; i < 9; i++) runs.push(await openOnce(app, session, record));
		app.drawn.unmount();
		const { report, doc } = runs[0] as (typeof runs)[number];
		if (report.origin.kind !== "rebuilt") throw new Error(`bench: the body is ${report.origin.kind}, not exact`);
		const raw = performance.now();
		doc.toggle(4);
		doc.visible(SIZE.columns, SIZE.rows - 3);
		const rawMs = performance.now() - raw;
		const find = performance.now();
		const hits = doc.search("quick");
		doc.next(1, SIZE.columns, SIZE.rows - 3);
		const findMs = performance.now() - find;
		const kb = (report.sent.bodyBytes ?? 0) / 1024;
		return [
			`request viewer, a ${Math.round(requestTokens(report) / 1000)}k-token request (${kb.toFixed(0)} KB body, ${report.messages?.items.length} messages):`,
			`  open: rebuild, hash check, first frame     ${median(runs.map((r) => r.ms))
				.toFixed(0)
				.padStart(5)} ms   (min ${Math.min(...runs.map((r) => r.ms)).toFixed(0)} ms; target ≤ 200 ms)`,
			`    of which the report and the document   ${median(runs.map((r) => r.built))
				.toFixed(0)
				.padStart(5)} ms`,
			`  open the raw JSON (${doc.total(SIZE.columns)} rows)        ${rawMs.toFixed(0).padStart(5)} ms`,
			`  search it (${hits} matches)                  ${findMs.toFixed(0).padStart(5)} ms`,
		];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchRequest()) console.log(line);
