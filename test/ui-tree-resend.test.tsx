// Edit and resend from the session tree, and /fork and /clone, against the wire-level test server with the real
// OpenAI SDK: what the next request holds, and what the session files say.
import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIProvider } from "../src/llm/openai.js";
import { loadSession } from "../src/session/load.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { runCommand } from "../src/ui/screens/commands.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";
import { KEYS, treeApp, until } from "./support/tree-app.js";
import { startWireServer, type WireServer, type WireTurn } from "./support/wire-server.js";

beforeAll(loadMarkdown);
const tmp = tempDirsPerTest();
let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function wireApp(script: WireTurn[]) {
	server = await startWireServer(script);
	const provider = createOpenAIProvider({ apiKey: "k", baseURL: `${server.url}/v1` });
	const app = treeApp({ provider, dir: tmp(), cwd: tmp() });
	const posts = () => (server?.requests ?? []).filter((r) => r.method === "POST");
	/** The text of each message of the last request, system prompt left out. */
	const lastSent = () => {
		const body = posts().at(-1)?.body as { messages: { role: string; content: unknown }[] };
		return body.messages.filter((m) => m.role !== "system" && m.role !== "developer").map((m) => m.content);
	};
	return { app, posts, lastSent };
}

const selectedRow = (frame: string) => frame.split("\n").find((line) => line.startsWith("› "));

describe("edit and resend from the session tree", () => {
	it("sends the old prefix and the new text, not the abandoned branch; the file keeps both branches", async () => {
		const { app, posts, lastSent } = await wireApp([
			{ text: "Answer one." },
			{ text: "Answer two." },
			{ text: "Answer two, again." },
		]);
		await app.conversation.run("first prompt");
		await app.conversation.run("second prompt");
		await app.press(KEYS.esc, KEYS.esc);
		await until(() => app.store.screen === "rewind");
		await app.press("t");
		await until(() => app.frame().includes("session tree"));
		await app.press(KEYS.up);
		await until(() => selectedRow(app.frame())?.includes("you › second prompt") === true);
		await app.press("e");
		await until(() => app.store.screen === "chat");
		expect(app.input.text).toBe("second prompt");
		expect(app.notices.at(-1)).toBe(
			"editing an earlier prompt: sending it starts a new branch; the old one stays in /tree",
		);
		// The chat shows the path up to the prompt's parent.
		expect(app.frame()).toContain("Answer one.");
		expect(app.frame()).not.toContain("Answer two.");
		await app.press(", with tests", KEYS.enter);
		await until(() => posts().length === 3 && !app.conversation.running);
		await app.settle();
		expect(lastSent()).toEqual(["first prompt", "Answer one.", "second prompt, with tests"]);
		expect(JSON.stringify(lastSent())).not.toContain("Answer two.");

		const file = app.conversation.session?.file as string;
		const saved = loadSession(file);
		const prompts = saved.entries.filter((e) => e.type === "user");
		expect(prompts.map((p) => p.type === "user" && p.content)).toEqual([
			"first prompt",
			"second prompt",
			"second prompt, with tests",
		]);
		const answerOne = saved.entries.find((e) => e.type === "assistant");
		expect(prompts[1]?.parentId).toBe(answerOne?.id);
		expect(prompts[2]?.parentId).toBe(answerOne?.id);
		const leaf = saved.node(saved.leafId ?? "");
		expect(leaf?.type === "assistant" && JSON.stringify(leaf.content)).toContain("Answer two, again.");
		expect(saved.branchPoints().map((n) => n.id)).toEqual([answerOne?.id]);
		app.unmount();
	});

	it("edits the first prompt: a second branch from the session's start", async () => {
		const { app, lastSent } = await wireApp([{ text: "One." }, { text: "Two." }, { text: "Other." }]);
		await app.conversation.run("first prompt");
		await app.conversation.run("second prompt");
		app.intents.openTree();
		await until(() => app.frame().includes("session tree"));
		await app.press(KEYS.home, KEYS.down);
		await until(() => selectedRow(app.frame())?.includes("you › first prompt") === true);
		await app.press("e");
		await until(() => app.input.text === "first prompt");
		app.input.set("another first prompt");
		await app.press(KEYS.enter);
		await until(() => app.frame().includes("Other."));
		await app.settle();
		expect(lastSent()).toEqual(["another first prompt"]);
		const saved = loadSession(app.conversation.session?.file as string);
		const [first, , other] = saved.entries.filter((e) => e.type === "user");
		expect(other?.type === "user" && other.content).toBe("another first prompt");
		expect(other?.parentId).toBe(first?.parentId);
		app.unmount();
	});
});

describe("/fork and /clone", () => {
	it("write a new session whose header names its origin and entry, and switch the app to it", async () => {
		const { app, lastSent } = await wireApp([
			{ text: "Answer one." },
			{ text: "Answer two." },
			{ text: "Forked answer." },
		]);
		await app.conversation.run("first prompt");
		await app.conversation.run("second prompt");
		const origin = app.conversation.session;
		const originId = origin?.session.header.id;
		const originFile = origin?.file as string;
		const answerOne = origin?.session.entries.find((e) => e.type === "assistant");

		// f in the tree: from the selected entry.
		app.intents.openTree();
		await until(() => app.frame().includes("session tree"));
		await app.press(KEYS.up, KEYS.up);
		await until(() => selectedRow(app.frame())?.includes("Answer one.") === true);
		await app.press("f");
		await until(() => app.store.screen === "chat");
		const fork = app.conversation.session;
		expect(fork?.file).not.toBe(originFile);
		expect(dirname(fork?.file ?? "")).toBe(dirname(originFile));
		expect(loadSession(fork?.file ?? "").header.parent).toEqual({
			session: originId,
			entry: answerOne?.id,
			path: originFile,
		});
		expect(app.notices.at(-1)).toBe(
			`this is a new session, ${fork?.session.header.id}: a copy of ${originId} up to ${answerOne?.id} (that one is unchanged: gar --session ${originId})`,
		);
		expect(app.frame()).not.toContain("Answer two.");
		expect(app.lines()[0]).toContain(`${fork?.session.header.id} "first prompt"`);
		// The next message goes on from the copy, in the new file; the origin is unchanged.
		const before = loadSession(originFile).entries.length;
		await app.conversation.run("in the fork");
		expect(lastSent()).toEqual(["first prompt", "Answer one.", "in the fork"]);
		expect(loadSession(originFile).entries.length).toBe(before);
		expect(loadSession(fork?.file ?? "").entries.some((e) => e.type === "user" && e.content === "in the fork")).toBe(
			true,
		);

		// /clone: the whole current path.
		await runCommand("/clone", app.ctx);
		const clone = app.conversation.session;
		expect(clone?.file).not.toBe(fork?.file);
		const cloned = loadSession(clone?.file ?? "");
		expect(cloned.header.parent).toMatchObject({ session: fork?.session.header.id, entry: fork?.leafId });
		expect(cloned.pathTo(cloned.leafId).map((n) => n.id)).toEqual(
			loadSession(fork?.file ?? "")
				.pathTo(fork?.leafId ?? null)
				.map((n) => n.id),
		);
		expect(readdirSync(dirname(originFile))).toHaveLength(3);

		// /fork ENTRY by an id prefix; a prefix that matches nothing is an error that changes nothing.
		await runCommand(`/fork ${answerOne?.id.slice(0, 6)}`, app.ctx);
		expect(loadSession(app.conversation.session?.file ?? "").header.parent?.entry).toBe(answerOne?.id);
		const current = app.conversation.session?.file;
		await runCommand("/fork zzzzzz", app.ctx);
		expect(app.notices.at(-1)).toMatch(/^no entry matches "zzzzzz" in /);
		expect(app.conversation.session?.file).toBe(current);
		expect(readdirSync(dirname(originFile))).toHaveLength(4);
		app.unmount();
	});
});
