import { describe, expect, it } from "vitest";
import { showCommand } from "../src/commands/show.js";
import { forkSession } from "../src/session/fork.js";
import { SessionWriter } from "../src/session/writer.js";
import { fakeClock, firstReply, secondReply, tempDirsPerTest } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();

/** `gar show FILE` as text, without the two header lines (`header` keeps them). */
function shown(file: string, header = false): string[] {
	let out = "";
	showCommand({ baseDir: tmp(), cwd: "/p", write: (t) => (out += t) }, file, {});
	return out
		.trimEnd()
		.split("\n")
		.slice(header ? 0 : 2);
}

const reply = (text: string) => ({ ...secondReply, content: [{ type: "text" as const, text }] });

describe("gar show", () => {
	it("draws branches as a tree, so siblings are not read as a chain", () => {
		const w = SessionWriter.create({ dir: tmp(), cwd: "/p", now: fakeClock() });
		const u1 = w.appendUser("one");
		const a1 = w.appendAssistant(reply("first"));
		const u2 = w.appendUser("two");
		const a2 = w.appendAssistant(reply("second"));
		w.moveTo(a1.id);
		const u3 = w.appendUser("three");
		const a3 = w.appendAssistant(reply("third"));
		w.moveTo(u3.id);
		const a4 = w.appendAssistant(reply("fourth"));
		w.moveTo(a1.id);
		const u5 = w.appendUser("five");
		w.close();
		expect(shown(w.file)).toEqual([
			`${u1.id}  user       one`,
			`${a1.id}  assistant  first  3 branches`,
			`├─ ${u2.id}  user       two`,
			`│  ${a2.id}  assistant  second`,
			`├─ ${u3.id}  user       three  2 branches`,
			`│  ├─ ${a3.id}  assistant  third`,
			`│  └─ ${a4.id}  assistant  fourth`,
			`└─ ${u5.id}  user       five  ← current leaf`,
		]);
	});

	it("draws a chain without guides, and several roots as branches", () => {
		const w = SessionWriter.create({ dir: tmp(), cwd: "/p", now: fakeClock() });
		const u1 = w.appendUser("one");
		const a1 = w.appendAssistant(reply("first"));
		w.moveTo(null);
		const u2 = w.appendUser("again");
		w.close();
		expect(shown(w.file)).toEqual([
			`├─ ${u1.id}  user       one`,
			`│  ${a1.id}  assistant  first`,
			`└─ ${u2.id}  user       again  ← current leaf`,
		]);
		const chain = SessionWriter.create({ dir: tmp(), cwd: "/p", now: fakeClock() });
		const c1 = chain.appendUser("one");
		const c2 = chain.appendAssistant(reply("first"));
		chain.close();
		expect(shown(chain.file)).toEqual([`${c1.id}  user       one`, `${c2.id}  assistant  first  ← current leaf`]);
	});

	it("shows a command run with !cmd as `$ cmd`", () => {
		const w = SessionWriter.create({ dir: tmp(), cwd: "/p", now: fakeClock() });
		const u = w.appendUser("I ran a shell command myself; its output is here for context.\n$ ls -la\na.txt\n", {
			source: "shell",
		});
		const a = w.appendAssistant(firstReply);
		w.close();
		expect(shown(w.file)).toEqual([
			`${u.id}  user       $ ls -la`,
			`${a.id}  assistant  Let me look. · calls bash  ← current leaf`,
		]);
	});

	it("says in its first line which session and entry a fork was copied from", () => {
		const dir = tmp();
		const w = SessionWriter.create({ dir, cwd: "/p", now: fakeClock() });
		const u = w.appendUser("one");
		w.appendAssistant(reply("first"));
		w.close();
		const fork = forkSession(w.file, u.id, { dir });
		const [first] = shown(fork, true);
		// Unnamed, it is called by its first prompt.
		expect(first).toMatch(new RegExp(`^session \\w+ "one" · /p · fork of ${w.session.header.id} at ${u.id}$`));
		expect(shown(w.file, true)[0]).toBe(`session ${w.session.header.id} "one" · /p`);
	});
});
