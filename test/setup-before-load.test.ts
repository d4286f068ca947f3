// setupRun's beforeSessionLoad: the app's hook between resolving a continued session's file and reading it (the
// app draws the session's last screen from the file's tail there, ui/resume-preview.ts).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RunFlags, setupRun } from "../src/modes/setup.js";
import { loadSessionSliced } from "../src/session/load.js";
import { SessionWriter } from "../src/session/writer.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();

/** A home with a session folder, a key, and one saved session recorded in `cwd` (the home itself). */
function world() {
	const home = tmp();
	const base = join(home, "sessions");
	const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), OPENAI_API_KEY: "k" };
	const writer = SessionWriter.create({ dir: base, cwd: home });
	writer.appendUser("the first prompt");
	writer.close();
	const flags: RunFlags = { cwd: home, sessionDir: base, provider: "openai" };
	return { home, base, env, flags, file: writer.file, id: writer.session.header.id };
}

/** A callback that records the files it was given and appends a prompt to each before the setup reads it. */
function recorder() {
	const files: string[] = [];
	const options = {
		beforeSessionLoad: async (file: string) => {
			files.push(file);
			const writer = SessionWriter.open(file);
			writer.appendUser("written in the callback");
			writer.close();
			return undefined;
		},
	};
	return { files, options };
}

describe("setupRun's beforeSessionLoad", () => {
	it("continues the Session the callback read (the app reads it sliced) without reading the file again", async () => {
		const w = world();
		const options = {
			beforeSessionLoad: async (file: string) => {
				const read = await loadSessionSliced(file, () => new Promise((resolve) => setImmediate(resolve)), 0);
				// Written after the callback read the file: a second read would find it.
				const writer = SessionWriter.open(file);
				writer.appendUser("written after the read");
				writer.close();
				return read;
			},
		};
		const setup = await setupRun({ ...w.flags, session: w.file }, w.env, options);
		const session = setup.conversation.session?.session;
		expect(session?.entries.some((e) => "content" in e && e.content === "written after the read")).toBe(false);
		expect(session?.header.id).toBe(w.id);
		setup.conversation.close();
	});

	it("gets --session's file (named by an id prefix) before the file is read", async () => {
		const w = world();
		const seen = recorder();
		const setup = await setupRun({ ...w.flags, session: w.id.slice(0, 6) }, w.env, seen.options);
		expect(seen.files).toEqual([w.file]);
		// What the callback appended is in the session the conversation continues: it was read after the callback.
		const session = setup.conversation.session?.session;
		expect(session?.node(session.leafId ?? "")).toMatchObject({ type: "user", content: "written in the callback" });
		setup.conversation.close();
	});

	it("gets -c's latest session before it is read, and with --no-session too", async () => {
		const w = world();
		const seen = recorder();
		const setup = await setupRun({ ...w.flags, continue: true }, w.env, seen.options);
		expect(seen.files).toEqual([w.file]);
		expect(setup.conversation.session?.session.entries.at(-1)).toMatchObject({ content: "written in the callback" });
		setup.conversation.close();
		const unsaved = await setupRun({ ...w.flags, continue: true, noSession: true }, w.env, seen.options);
		expect(seen.files).toEqual([w.file, w.file]);
		unsaved.conversation.close();
	});

	it("is not called for a new session, saved or not", async () => {
		const w = world();
		const seen = recorder();
		(await setupRun(w.flags, w.env, seen.options)).conversation.close();
		(await setupRun({ ...w.flags, noSession: true }, w.env, seen.options)).conversation.close();
		expect(seen.files).toEqual([]);
	});

	it("leaves the errors as they were: a missing session is not passed to it, another folder's is refused after", async () => {
		const w = world();
		const seen = recorder();
		await expect(setupRun({ ...w.flags, session: "nosuchsession" }, w.env, seen.options)).rejects.toThrow(
			/no session matches "nosuchsession"/,
		);
		await expect(
			setupRun({ ...w.flags, continue: true, cwd: join(w.home, "other") }, w.env, seen.options),
		).rejects.toThrow(/no session to continue in .*other/);
		expect(seen.files).toEqual([]);
		// Named by its path from another folder: the file is resolved (and handed over), then refused as before.
		const elsewhere = join(w.home, "elsewhere");
		await expect(setupRun({ ...w.flags, cwd: elsewhere, session: w.file }, w.env, seen.options)).rejects.toThrow(
			new RegExp(`recorded in ${w.home}, not in ${elsewhere}: continue it there`),
		);
	});
});
