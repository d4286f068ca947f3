// The session tree's model (src/ui/state/tree-model.ts): rows, folding, filters, branch jumps and search, over real
// sessions written by the real writer.
import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "../src/llm/types.js";
import { SessionWriter } from "../src/session/writer.js";
import { TreeModel } from "../src/ui/state/tree-model.js";
import { fakeClock, secondReply, tempDirsPerTest } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();

const reply = (text: string): AssistantMessage => ({ ...secondReply, content: [{ type: "text", text }] });
const calls = (text: string, ...names: string[]): AssistantMessage => ({
	...secondReply,
	stopReason: "tool_use",
	content: [
		{ type: "text", text },
		...names.map((name, i) => ({ type: "tool_call" as const, id: `${text}-${i}`, name, arguments: {} })),
	],
});

/** A prompt answered by a reply that first calls `tools` (each answered), then says `answer`. */
function turn(w: SessionWriter, prompt: string, answer: string, tools: string[] = []) {
	const user = w.appendUser(prompt);
	if (tools.length > 0) {
		const step = w.appendAssistant(calls(`looking (${prompt})`, ...tools));
		for (const [i, name] of tools.entries()) {
			w.appendToolResult({ callId: `looking (${prompt})-${i}`, name, content: "ok", isError: false });
		}
		void step;
	}
	const last = w.appendAssistant(reply(answer));
	return { user, last };
}

/** The rows on screen as "guide + text" lines, the selected one marked with ">". */
function rows(model: TreeModel, height = 50): string[] {
	return model.window(height).map((v, i) => {
		const marks = [
			...v.labels.map((l) => `[${l}]`),
			v.branches ? `${v.branches} branches` : "",
			v.hidden !== undefined ? `folded ${v.hidden}` : "",
			v.leaf ? "← current" : "",
		].filter(Boolean);
		const selected = model.top + i === model.cursor ? ">" : " ";
		return `${selected}${v.guide}${v.row.kind === "prompt" ? "you › " : ""}${v.text}${marks.length ? `  ${marks.join(" ")}` : ""}`;
	});
}

/** one → first answer, which branches into two/second, three/third (then the leaf), and five. */
function branched() {
	const w = SessionWriter.create({ dir: tmp(), cwd: "/p", now: fakeClock() });
	const one = turn(w, "one", "first answer", ["read", "read", "edit", "bash"]);
	const two = turn(w, "two", "second answer");
	w.moveTo(one.last.id);
	const three = turn(w, "three", "third answer");
	w.moveTo(one.last.id);
	const five = turn(w, "five", "fifth answer");
	w.moveTo(three.last.id);
	return { w, one, two, three, five };
}

describe("the session tree's rows", () => {
	it("shows a reply's steps as one row with its tool calls, branches with guides, the current leaf", () => {
		const { w } = branched();
		const model = new TreeModel(w.session);
		expect(rows(model)).toEqual([
			" you › one",
			" first answer · read 2 · edit 1 · bash 1  3 branches",
			" ├─ you › two",
			" │  second answer",
			" ├─ you › three",
			">│  third answer  ← current",
			" └─ you › five",
			"    fifth answer",
		]);
		const current = model.window(50).filter((v) => v.onPath);
		expect(current.map((v) => v.text)).toEqual([
			"one",
			"first answer · read 2 · edit 1 · bash 1",
			"three",
			"third answer",
		]);
		expect(model.size).toEqual({ entries: 13, branchPoints: 1 });
	});

	it("marks compactions, model changes, stopped replies and labels", () => {
		const w = SessionWriter.create({ dir: tmp(), cwd: "/p", now: fakeClock() });
		const { user } = turn(w, "first line\nsecond line", "done");
		w.appendModelChange("openai", "gpt-5");
		w.appendCompaction({
			reason: "manual",
			summary: "s",
			firstKeptEntryId: null,
			tokensBefore: 180_000,
			tokensAfter: 20_000,
		});
		w.appendUser("go on");
		w.appendAssistant({ ...reply("half"), stopReason: "aborted" });
		w.label(user.id, "start");
		expect(rows(new TreeModel(w.session)).map((r) => r.slice(1))).toEqual([
			"you › first line  [start]",
			"done",
			"model: openai/gpt-5",
			"compacted (manual): 180k → 20k tokens",
			"you › go on",
			"half · (stopped)  ← current",
		]);
	});
});

describe("moving in the session tree", () => {
	it("folds a branch to its first row and back; ← again goes to its branch point; → enters a branch", () => {
		const { w } = branched();
		const model = new TreeModel(w.session);
		expect(model.selected?.nodes.at(-1)?.id).toBe(w.leafId);
		expect(model.fold()).toBe(true);
		expect(rows(model)).toEqual([
			" you › one",
			" first answer · read 2 · edit 1 · bash 1  3 branches",
			" ├─ you › two",
			" │  second answer",
			">├─ you › three  folded 1",
			" └─ you › five",
			"    fifth answer",
		]);
		// Folded already: ← selects the branch point above.
		expect(model.fold()).toBe(true);
		expect(model.cursor).toBe(1);
		// Folding the main line hides everything below it.
		model.toEdge(false);
		model.fold();
		expect(rows(model)).toEqual([">you › one  folded 7"]);
		expect(model.unfold()).toBe(true);
		expect(rows(model)).toHaveLength(7);
		// → on the branch point goes into its first branch.
		model.move(1);
		expect(model.unfold()).toBe(true);
		expect(model.selected?.nodes[0]?.type).toBe("user");
		expect(rows(model)[model.cursor]).toBe(">├─ you › two");
		// The folded branch opens again with →.
		model.move(2);
		expect(model.unfold()).toBe(true);
		expect(rows(model)).toHaveLength(8);
	});

	it("jumps between branch points with Tab and Shift+Tab", () => {
		const w = SessionWriter.create({ dir: tmp(), cwd: "/p", now: fakeClock() });
		const a = turn(w, "a", "A");
		const b = turn(w, "b", "B");
		turn(w, "c", "C");
		w.moveTo(a.last.id);
		turn(w, "a2", "A2");
		w.moveTo(b.last.id);
		turn(w, "b2", "B2");
		const model = new TreeModel(w.session);
		model.toEdge(false);
		expect(model.jumpBranch(1)).toBe(true);
		expect(model.selected?.nodes.at(-1)?.id).toBe(a.last.id);
		expect(model.jumpBranch(1)).toBe(true);
		expect(model.selected?.nodes.at(-1)?.id).toBe(b.last.id);
		expect(model.jumpBranch(1)).toBe(false);
		expect(model.jumpBranch(-1)).toBe(true);
		expect(model.selected?.nodes.at(-1)?.id).toBe(a.last.id);
		expect(model.jumpBranch(-1)).toBe(false);
	});

	it("filters to the prompts or the labelled entries, keeping the selection on its entry", () => {
		const { w, two, five } = branched();
		w.label(two.last.id, "keep");
		w.label(five.user.id, "retry");
		const model = new TreeModel(w.session);
		expect(model.cycleFilter()).toBe("prompts");
		// The branch point's reply is filtered out: its prompt says where the branches start.
		expect(rows(model)).toEqual([
			" you › one  3 branches",
			" ├─ you › two",
			">├─ you › three",
			" └─ you › five  [retry]",
		]);
		expect(model.cycleFilter()).toBe("labelled");
		// A branch's first row shown carries its guide; the selected entry is not labelled: the next row that is.
		expect(rows(model)).toEqual([" ├─ second answer  [keep]", ">└─ you › five  [retry]"]);
		expect(model.cycleFilter()).toBe("all");
		expect(model.count).toBe(8);
		expect(model.selected?.nodes[0]?.id).toBe(five.user.id);
	});

	it("finds text in prompts and replies, forward and back, unfolding what hides it", () => {
		const { w } = branched();
		const model = new TreeModel(w.session);
		model.toEdge(false);
		model.fold();
		expect(model.count).toBe(1);
		expect(model.search("FIFTH", 1)).toBe(true);
		expect(rows(model)[model.cursor]).toBe(">   fifth answer");
		expect(model.search("answer", 1)).toBe(true);
		expect(model.selected?.nodes.at(-1)?.type).toBe("assistant");
		expect(rows(model)[model.cursor]).toContain("first answer");
		expect(model.search("answer", -1)).toBe(true);
		expect(rows(model)[model.cursor]).toBe(">   fifth answer");
		expect(model.search("edit", 1)).toBe(true);
		expect(rows(model)[model.cursor]).toContain("first answer");
		expect(model.search("nowhere", 1)).toBe(false);
	});

	it("keeps its folds, filter and selected entry when the session grows", () => {
		const { w, two } = branched();
		const model = new TreeModel(w.session);
		model.move(-3);
		expect(model.selected?.nodes[0]?.id).toBe(two.user.id);
		model.fold();
		const before = rows(model);
		turn(w, "four", "fourth answer");
		model.sync(w.session);
		expect(model.selected?.nodes[0]?.id).toBe(two.user.id);
		expect(rows(model)).toEqual(
			[
				...before.slice(0, 4),
				"│  third answer",
				"│  you › four",
				"│  fourth answer  ← current",
				...before.slice(5),
			].map((r, i) => (i >= 4 && i <= 6 ? ` ${r}` : r)),
		);
	});

	it("shows only the window's rows, scrolled to the selection", () => {
		const w = SessionWriter.create({ dir: tmp(), cwd: "/p", now: fakeClock() });
		for (let i = 0; i < 100; i++) turn(w, `prompt ${i}`, `answer ${i}`);
		const model = new TreeModel(w.session);
		// Opened at the current leaf (the last row), which is in the window.
		expect(model.window(10).map((v) => v.text)).toEqual(
			Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? `prompt ${95 + i / 2}` : `answer ${95 + (i - 1) / 2}`)),
		);
		model.toEdge(false);
		expect(model.window(10)[0]?.text).toBe("prompt 0");
		model.move(15);
		expect(model.window(10).at(-1)?.text).toBe("answer 7");
	});
});
