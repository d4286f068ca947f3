// The approval dialog's "commands starting with" key (p): the prefix shown before choosing, what the rules said,
// and what p answers (only the prefixes shown; never before the whole command was read; nothing when none is offered).
import { render } from "ink-testing-library";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApprovalDecision } from "../src/agent/loop.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { App } from "../src/ui/screens/App.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";
import { appInfo, tick } from "./support/ui-app.js";

beforeAll(loadMarkdown);

const info = appInfo({ running: () => true });
const noop = { submit: () => {}, abort: () => {}, exit: () => {} };

/** The app with a bash question open, as the tool runner opens it with what the rules said. */
function open(command: string, extra: { prefixes?: string[]; ruleNote?: string }, rows = 30) {
	const store = new UiStore(initialView({ provider: "p", model: "m" }));
	const answers: ApprovalDecision[] = [];
	const preview = { kind: "bash" as const, command, cwd: "/work/project", timeoutMs: 120_000 };
	store.onEvent({ type: "approval_request", callId: "c1", name: "bash", args: { command }, preview, ...extra });
	store.awaitAnswer("c1", (d) => answers.push(d));
	const app = render(
		<App store={store} input={new InputModel()} info={info} actions={noop} size={{ columns: 100, rows }} />,
	);
	const frame = () => app.lastFrame() ?? "";
	const press = async (text: string) => {
		app.stdin.write(text);
		await tick();
	};
	return { store, answers, frame, press, app };
}

describe("the approval dialog's p key", () => {
	it("shows the exact prefix and what the rules said; p allows and saves only those prefixes", async () => {
		const { frame, press, answers, app } = open("git status && npm test -- --watch", {
			prefixes: ["npm test"],
			ruleNote: '`git status` is allowed by bash "git status" (~/.config/gar/config.toml:4)',
		});
		expect(frame()).toContain('rules: `git status` is allowed by bash "git status" (~/.config/gar/config.toml:4)');
		expect(frame()).toContain("p allow commands starting with `npm test` (saved)");
		await press("p");
		expect(answers).toEqual([{ approved: true, prefixes: ["npm test"] }]);
		app.unmount();
	});

	it("does nothing but say why when no prefix is offered", async () => {
		const note = "`npm test > out.txt` writes a file (> out.txt): no rule allows that";
		const { frame, press, answers, store, app } = open("npm test > out.txt", { ruleNote: note });
		expect(frame()).not.toContain("p allow");
		await press("p");
		expect(answers).toEqual([]);
		expect(store.hint).toBe(`no "commands starting with" rule is offered for this call: ${note}`);
		await press("y");
		expect(answers).toEqual([{ approved: true }]);
		app.unmount();
	});

	it("waits, like y, until the whole command was on screen", async () => {
		const command = [...Array.from({ length: 40 }, (_, i) => `echo ${i}`), "rm -rf x"].join("\n");
		const { press, answers, store, frame, app } = open(command, { prefixes: ["echo", "rm"] }, 24);
		await press("p");
		expect(answers).toEqual([]);
		expect(store.approval?.early).toBe(true);
		expect(frame()).toContain("p allow commands starting with `echo`, `rm` (saved)");
		app.unmount();
	});

	it("shows hidden characters in a prefix as what they are", async () => {
		const { frame, app } = open("np\u200bm test", { prefixes: ["np\u200bm test"] });
		expect(frame()).toContain("p allow commands starting with `np⟨U+200B⟩m test` (saved)");
		app.unmount();
	});
});

describe("a call a rule allowed", () => {
	it("says under its header which rule allowed it", async () => {
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		store.inspector = false;
		const app = render(
			<App store={store} input={new InputModel()} info={info} actions={noop} size={{ columns: 100, rows: 20 }} />,
		);
		const args = { command: "npm test" };
		const rule = 'bash "npm test" (~/.config/gar/config.toml:4)';
		store.onEvent({ type: "tool_start", callId: "c1", name: "bash", args, rule });
		store.onEvent({
			type: "tool_end",
			callId: "c1",
			name: "bash",
			outcome: "done",
			content: "ok",
			details: null,
			isError: false,
			durationMs: 5,
		});
		await tick();
		const lines = (app.lastFrame() ?? "").split("\n");
		const at = lines.findIndex((line) => line.startsWith("▸ bash npm test"));
		expect(lines[at + 1]).toMatch(/^ {2}↪ allowed by the rule bash "npm test" \(~\/\.config\/gar\/config\.toml:4\)/);
		app.unmount();
	});
});
