// What a session changed on disk (README "What this session changed"): the files its writes and edits changed with
// their +/− counts, each file's diff from before the session to now (or, where something else changed it too, the
// recorded diffs and why), in /changes, in the inspector, and headless in `gar changes`.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setupRun } from "../src/modes/setup.js";
import { changedFiles, changesOf, type EndedCall, fileDiff } from "../src/session/changes.js";
import { createTools, runTool } from "../src/tools/index.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { App } from "../src/ui/screens/App.js";
import { type CommandContext, runCommand } from "../src/ui/screens/commands.js";
import { changesViewOf } from "../src/ui/state/changes-view.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";
import { runGar, tempHome } from "./support/cli.js";
import { appInfo, tick } from "./support/ui-app.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

beforeAll(loadMarkdown);

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/** Runs real write/edit calls in `dir`; returns them as ended calls, as a session records them. */
async function calls(dir: string, steps: { name: string; args: Record<string, unknown> }[]): Promise<EndedCall[]> {
	const tools = createTools({ cwd: dir, bashTimeoutMs: 10_000, env: process.env, outputDir: join(dir, ".out") });
	const out: EndedCall[] = [];
	for (const [i, step] of steps.entries()) {
		const tool = tools.find((t) => t.name === step.name);
		if (!tool) throw new Error(step.name);
		const result = await runTool(tool, step.args, { signal: new AbortController().signal });
		out.push({ callId: `c${i}`, name: step.name, isError: result.isError, details: result.details });
	}
	return out;
}

describe("a session's changes", () => {
	it("groups writes and edits by file with summed counts, and diffs each from before the session to now", async () => {
		const { project } = tempHome();
		writeFileSync(join(project, "old.txt"), "one\ntwo\nthree\n");
		const ended = await calls(project, [
			{ name: "write", args: { path: "new.txt", content: "a\nb\n" } },
			{ name: "edit", args: { path: "old.txt", edits: [{ oldText: "two", newText: "TWO" }] } },
			{ name: "edit", args: { path: "old.txt", edits: [{ oldText: "three", newText: "3\n4" }] } },
			{ name: "edit", args: { path: "old.txt", edits: [{ oldText: "nowhere", newText: "x" }] } },
			{ name: "read", args: { path: "old.txt" } },
		]);
		const files = changedFiles(changesOf(ended));
		expect(files.map((f) => [f.path, f.added, f.removed, f.changes.map((c) => c.by)])).toEqual([
			[join(project, "new.txt"), 2, 0, ["write"]],
			[join(project, "old.txt"), 3, 2, ["edit", "edit"]],
		]);
		const [created, edited] = files;
		if (!created || !edited) throw new Error("files");
		expect(fileDiff(created, "new.txt").diff).toContain("@@ -0,0 +1,2 @@\n+a\n+b\n");
		// One diff from before the first edit to now, not the two edits one after the other.
		const net = fileDiff(edited, "old.txt");
		expect(net.note).toBeUndefined();
		expect(net.diff).toContain("@@ -1,3 +1,4 @@\n one\n-two\n-three\n+TWO\n+3\n+4\n");
	});

	it("shows the recorded diffs, and says why, when something else changed the file too", async () => {
		const { project } = tempHome();
		writeFileSync(join(project, "f.txt"), "x\ny\n");
		const ended = await calls(project, [
			{ name: "edit", args: { path: "f.txt", edits: [{ oldText: "x", newText: "X" }] } },
		]);
		const [file] = changedFiles(changesOf(ended));
		if (!file) throw new Error("file");
		writeFileSync(join(project, "f.txt"), "X\ny\nby hand\n");
		const shown = fileDiff(file, "f.txt");
		expect(shown.note).toBe(
			"f.txt was changed after gar's last change (by a command or by hand): this is gar's change as recorded",
		);
		expect(shown.diff).toContain("-x\n+X\n");
		expect(fileDiff(file, "f.txt", () => null).note).toBe(
			"f.txt is gone: it was removed after gar's last change: this is gar's change as recorded",
		);
	});
});

const info = appInfo();

describe("/changes and gar changes", () => {
	it("after a write, an edit and a bash sed: the list, the inspector's line, each diff, and the headless command", async () => {
		server = await startWireServer([
			{ toolCalls: [{ id: "w", name: "write", args: { path: "notes.md", content: "# notes\nfirst\n" } }] },
			{
				toolCalls: [
					{
						id: "e",
						name: "edit",
						args: { path: "app.js", edits: [{ oldText: "let a = 1;", newText: "const a = 2;" }] },
					},
				],
			},
			{ toolCalls: [{ id: "b", name: "bash", args: { command: "sed -i 's/first/second/' notes.md" } }] },
			{ text: "Done." },
		]);
		const { project, env } = tempHome();
		writeFileSync(join(project, "app.js"), "let a = 1;\nconsole.log(a);\n");
		const setup = await setupRun(
			{ cwd: project, provider: "openai", model: "gpt-5", baseUrl: server.url },
			{ ...env, OPENAI_API_KEY: "test-key" },
		);
		const store = new UiStore(initialView(setup.conversation.model));
		setup.channel.subscribe(store.onEvent);
		await setup.conversation.run("take notes and fix a");
		expect(readFileSync(join(project, "notes.md"), "utf8")).toBe("# notes\nsecond\n");
		// The inspector's line: 2 files, the write's 2 lines and the edit's +1 −1.
		expect(store.view.changes).toEqual({ files: 2, added: 3, removed: 1 });
		const drawn = render(
			<App
				store={store}
				input={new InputModel()}
				info={info}
				actions={{ submit: () => {}, abort: () => {}, exit: () => {} }}
				size={{ columns: 120, rows: 30 }}
			/>,
		);
		const frame = () => drawn.lastFrame() ?? "";
		await tick();
		expect(frame()).toMatch(/files\s+changed 2 · \+3 −1/);

		const ctx: CommandContext = {
			setup,
			store,
			input: new InputModel(),
			exit: () => {},
			columns: () => 120,
			writeTerminal: () => {},
		};
		await runCommand("/changes", ctx);
		await tick();
		expect(store.screen).toBe("changes");
		expect(frame()).toContain("files changed 2 · +3 −1");
		// The sed is seen by the scan around the bash call: notes.md was changed by a command too.
		expect(frame()).toMatch(/notes\.md\s+\+2 −0 · 1 write, 1 bash command/);
		expect(frame()).toMatch(/app\.js\s+\+1 −1 · 1 edit/);
		// The edit's file: one diff from before the session.
		drawn.stdin.write("\u001b[B");
		await tick();
		drawn.stdin.write("\r");
		await tick();
		expect(changesViewOf(store)?.diff?.lines).toEqual([
			"@@ -1,2 +1,2 @@",
			"-let a = 1;",
			"+const a = 2;",
			" console.log(a);",
		]);
		expect(frame()).toContain("+const a = 2;");
		// The written file was changed again by the sed: gar shows its own change and says so.
		drawn.stdin.write("\u001b");
		await tick();
		drawn.stdin.write("\u001b[A");
		await tick();
		drawn.stdin.write("\r");
		await tick();
		expect(frame()).toContain("notes.md was changed by a bash command too: this is gar's change as recorded");
		drawn.stdin.write("\u001b");
		await tick();
		drawn.stdin.write("\u001b");
		await tick();
		expect(store.screen).toBe("chat");
		drawn.unmount();
		const id = setup.conversation.session?.session.header.id ?? "";
		setup.conversation.close();

		const json = await runGar(["changes", id, "--json"], { env, cwd: project });
		expect(json.code).toBe(0);
		const doc = JSON.parse(json.stdout);
		expect(doc.totals).toEqual({ files: 2, added: 3, removed: 1 });
		expect(
			doc.files.map((f: { path: string; changes: { by: string }[] }) => [f.path, f.changes.map((c) => c.by)]),
		).toEqual([
			[join(project, "notes.md"), ["write", "bash"]],
			[join(project, "app.js"), ["edit"]],
		]);
		expect(doc.files[1].diff).toContain("-let a = 1;\n+const a = 2;\n");
		expect(doc.files[0].note).toContain("notes.md was changed by a bash command too");
		const text = await runGar(["changes", id, "--stat"], { env, cwd: project });
		expect(text.stdout).toBe(
			`session ${id} · 2 files changed · +3 −1\n  notes.md  +2 −0 · 1 write, 1 bash command\n  app.js    +1 −1 · 1 edit\n`,
		);
	});
});
