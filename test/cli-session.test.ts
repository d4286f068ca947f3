import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadSession } from "../src/session/index.js";
import { runGar, spawnGar, tempHome } from "./support/cli.js";
import { type RecordedRequest, startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

function sessionFiles(root: string): string[] {
	const base = join(root, "data", "gar", "sessions");
	let files: string[] = [];
	try {
		for (const dir of readdirSync(base))
			files = files.concat(
				readdirSync(join(base, dir))
					// The listing's index (.index.json, .search.json) lives beside the sessions.
					.filter((f) => f.endsWith(".jsonl"))
					.map((f) => join(base, dir, f)),
			);
	} catch {
		return [];
	}
	return files.sort();
}

type Body = { messages: { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }[] };

/** Every tool call in an OpenAI request has a result right after its assistant message. */
function historyIsValid(request: RecordedRequest | undefined): boolean {
	const messages = (request?.body as Body | undefined)?.messages ?? [];
	for (const [i, m] of messages.entries()) {
		for (const call of m.tool_calls ?? []) {
			const rest = messages.slice(i + 1);
			if (!rest.some((r) => r.role === "tool" && r.tool_call_id === call.id)) return false;
		}
	}
	return true;
}

/** A reply that depends on the request: a bash call after a user message, a text answer after tool results. */
const toolThenAnswer = (req: RecordedRequest) => {
	const last = (req.body as Body).messages.at(-1);
	return last?.role === "tool"
		? { text: ["all ", "done"], usage: { input: 50, output: 2 } }
		: { toolCalls: [{ name: "bash", args: { command: "echo working" } }], usage: { input: 40, output: 5 } };
};

describe("sessions from the CLI", () => {
	it("saves a run, continues it with -c, and never writes the API key", async () => {
		server = await startWireServer(toolThenAnswer);
		const { root, project, env } = tempHome();
		const key = "sk-proj-SECRETSECRETSECRET1234";
		const base = ["--base-url", server.url, "--output", "json"];
		const first = await runGar(["-p", "first task", ...base], { env: { ...env, OPENAI_API_KEY: key }, cwd: project });
		expect(first.code).toBe(0);
		const id = JSON.parse(first.stdout).sessionId;
		const [file] = sessionFiles(root);
		expect(file).toContain(id);
		expect(statSync(file ?? "").mode & 0o777).toBe(0o600);

		const second = await runGar(["-p", "second task", "-c", ...base], {
			env: { ...env, OPENAI_API_KEY: key },
			cwd: project,
		});
		expect(second.code).toBe(0);
		expect(JSON.parse(second.stdout).sessionId).toBe(id);
		expect(sessionFiles(root)).toHaveLength(1);
		// The continued run sent the first run's conversation.
		const sent = JSON.stringify(server.requests.at(-2)?.body);
		expect(sent).toContain("first task");
		expect(sent).toContain("second task");

		const session = loadSession(file ?? "");
		expect(session.warnings).toEqual([]);
		const types = session.pathTo(session.leafId).map((e) => e.type);
		expect(types.filter((t) => t === "user")).toHaveLength(2);
		expect(readFileSync(file ?? "", "utf8")).not.toContain("SECRETSECRET");
	});

	it("branches with --session ID --at ENTRY: the next message is a new child, nothing is deleted", async () => {
		server = await startWireServer(toolThenAnswer);
		const { root, project, env } = tempHome();
		const base = ["--base-url", server.url, "--output", "json"];
		const opts = { env: { ...env, OPENAI_API_KEY: "k" }, cwd: project };
		const first = await runGar(["-p", "original", ...base], opts);
		const id: string = JSON.parse(first.stdout).sessionId;
		const [file] = sessionFiles(root);
		const before = loadSession(file ?? "");
		const userEntry = before.pathTo(before.leafId).find((e) => e.type === "user");
		const answer = before.pathTo(before.leafId).at(-1);

		// Branch at the first user message: the new message becomes its second child.
		const branch = await runGar(
			["-p", "another way", "--session", id.slice(0, 6), "--at", userEntry?.id ?? "", ...base],
			opts,
		);
		expect(branch.code).toBe(0);
		const after = loadSession(file ?? "");
		expect(after.children(userEntry?.id ?? null).length).toBe(2); // the old reply and the new user message
		expect(after.get(answer?.id ?? "")).toBeDefined(); // the old branch is still there
		expect(after.leaves().length).toBe(2);
		const sent = (server.requests.at(-2)?.body as Body | undefined)?.messages.map((m) => m.content);
		expect(JSON.stringify(sent)).toContain("original");
		expect(JSON.stringify(sent)).not.toContain("all done"); // the old branch's answer is not in the new context
	});

	it("writes nothing with --no-session", async () => {
		server = await startWireServer([{ text: "ok" }]);
		const { root, project, env } = tempHome();
		const run = await runGar(["-p", "hi", "--no-session", "--output", "json", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
		});
		expect(run.code).toBe(0);
		expect(JSON.parse(run.stdout).sessionId).toBeNull();
		expect(sessionFiles(root)).toEqual([]);
	});

	it("lists, forks, names and labels sessions", async () => {
		server = await startWireServer(toolThenAnswer);
		const { root, project, env } = tempHome();
		const opts = { env: { ...env, OPENAI_API_KEY: "k" }, cwd: project };
		const run = await runGar(["-p", "make a plan", "--output", "json", "--base-url", server.url], opts);
		const id: string = JSON.parse(run.stdout).sessionId;

		expect((await runGar(["name", id, "planning"], opts)).code).toBe(0);
		const [file] = sessionFiles(root);
		const entry = loadSession(file ?? "").entries.find((e) => e.type === "assistant")?.id ?? "";
		expect((await runGar(["label", id, entry, "good idea"], opts)).code).toBe(0);
		expect(loadSession(file ?? "").labels.get(entry)).toBe("good idea");

		const listed = JSON.parse((await runGar(["sessions", "--json"], opts)).stdout);
		expect(listed).toHaveLength(1);
		expect(listed[0]).toMatchObject({ id, name: "planning", firstPrompt: "make a plan" });
		const table = (await runGar(["sessions"], opts)).stdout;
		expect(table).toMatch(/ID\s+NAME\s+DATE\s+ENTRIES\s+FIRST PROMPT/);
		expect(table).toContain("planning");

		const original = readFileSync(file ?? "");
		const fork = await runGar(["fork", id, "--at", entry, "--json"], opts);
		expect(fork.code).toBe(0);
		const forked = JSON.parse(fork.stdout);
		expect(forked.parent).toMatchObject({ session: id, entry });
		const copy = loadSession(forked.file);
		expect(copy.leafId).toBe(entry);
		expect(readFileSync(file ?? "")).toEqual(original); // the source is untouched
		expect(JSON.parse((await runGar(["sessions", "--json"], opts)).stdout)).toHaveLength(2);
	});

	it("replays a session as the same events the live run emitted", async () => {
		server = await startWireServer(toolThenAnswer);
		const { project, env } = tempHome();
		const opts = { env: { ...env, OPENAI_API_KEY: "k" }, cwd: project };
		const live = await runGar(["-p", "go", "--output", "stream-json", "--base-url", server.url], opts);
		const liveEvents = live.stdout
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		const id = liveEvents.at(-1).sessionId;
		const replay = await runGar(["replay", id, "--output", "stream-json"], opts);
		expect(replay.code).toBe(0);
		const replayed = replay.stdout
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		// Deltas may be split differently and tool progress (tool_update) is not recorded; the sequence of
		// everything else and the messages are identical.
		const shape = (events: { type: string }[]) =>
			events
				.filter((e) => e.type !== "result" && e.type !== "tool_update")
				.map((e) => e.type)
				.filter((t, i, all) => !t.endsWith("_delta") || all[i - 1] !== t);
		expect(shape(replayed)).toEqual(shape(liveEvents));
		const messages = (events: { type: string; message?: unknown }[]) =>
			events.filter((e) => e.type === "message_end" || e.type === "tool_end").map((e) => e.message);
		expect(messages(replayed)).toEqual(messages(liveEvents));
		const text = await runGar(["replay", id], opts);
		expect(text.stdout).toContain("> go");
		expect(text.stdout).toContain("· bash echo working");
		expect(text.stdout).toContain("all done");
	});

	it("keeps two gar processes in the same folder apart", async () => {
		server = await startWireServer(toolThenAnswer);
		const { root, project, env } = tempHome();
		const opts = { env: { ...env, OPENAI_API_KEY: "k" }, cwd: project };
		const args = (p: string) => ["-p", p, "--output", "json", "--base-url", server?.url ?? ""];
		const [a, b] = await Promise.all([runGar(args("task A"), opts), runGar(args("task B"), opts)]);
		expect([a.code, b.code]).toEqual([0, 0]);
		const files = sessionFiles(root);
		expect(files).toHaveLength(2);
		const prompts = files.map((f) => {
			const s = loadSession(f);
			expect(s.warnings).toEqual([]);
			const path = s.pathTo(s.leafId);
			expect(path.map((e) => e.type)).toEqual(["model_change", "user", "assistant", "tool_result", "assistant"]);
			return path.find((e) => e.type === "user")?.type === "user" ? (path[1] as { content: string }).content : "";
		});
		expect(prompts.sort()).toEqual(["task A", "task B"]);
	});
});

describe("crash safety", () => {
	it("survives SIGKILL at random moments: files load, keep every written entry, and continue with -c", async () => {
		// A multi-turn task whose deltas are slow enough that kills land in every phase of a run.
		server = await startWireServer((req) => {
			const messages = (req.body as Body).messages;
			const results = messages.filter((m) => m.role === "tool").length;
			return results < 3
				? { toolCalls: [{ name: "bash", args: { command: `echo step ${results}` } }], delayMs: 15 }
				: { text: Array.from({ length: 10 }, (_, i) => `word${i} `), delayMs: 15 };
		});
		for (let round = 0; round < 8; round++) {
			const { root, project, env } = tempHome();
			const {
				child,
				stdout: output,
				closed,
			} = spawnGar(["-p", "multi-step", "--output", "stream-json", "--base-url", server.url], {
				env: { ...env, OPENAI_API_KEY: "k" },
				cwd: project,
			});
			await new Promise((r) => setTimeout(r, 120 + Math.random() * 500));
			child.kill("SIGKILL");
			await closed;
			const stdout = output();

			const files = sessionFiles(root);
			if (files.length === 0) continue; // killed before the session was created: nothing to lose
			const session = loadSession(files[0] ?? "");
			// Each event printed was emitted after the session writer (subscribed first) had appended its entry.
			const seen = stdout
				.split("\n")
				.filter((l) => l.endsWith("}"))
				.map((l) => JSON.parse(l) as { type: string; callId?: string });
			const entries = session.entries;
			const count = (type: string) => entries.filter((e) => e.type === type).length;
			expect(count("user")).toBeGreaterThanOrEqual(seen.filter((e) => e.type === "user_message").length);
			expect(count("assistant")).toBeGreaterThanOrEqual(seen.filter((e) => e.type === "message_end").length);
			for (const end of seen.filter((e) => e.type === "tool_end")) {
				expect(entries.some((e) => e.type === "tool_result" && e.callId === end.callId)).toBe(true);
			}
			if (count("user") === 0) continue;

			const resumed = await runGar(["-p", "carry on", "-c", "--output", "json", "--base-url", server.url], {
				env: { ...env, OPENAI_API_KEY: "k" },
				cwd: project,
			});
			expect(resumed.stderr).toBe("");
			expect(resumed.code).toBe(0);
			expect(historyIsValid(server.requests.at(-1))).toBe(true);
			const reloaded = loadSession(files[0] ?? "");
			expect(reloaded.entries.length).toBeGreaterThan(entries.length);
		}
	}, 60_000);
});
