// A project, a home and a conversation driven by the wire-level test server with the real tools: each `turn` sends a
// prompt whose reply makes the given tool calls (one model step per list), then says "done". For rewind's tests.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Setup, setupRun } from "../../src/modes/setup.js";
import { applyRewind, type RewindOptions, type RewindReport, type RewindTarget } from "../../src/rewind/api.js";
import type { SessionWriter, UserEntry } from "../../src/session/index.js";
import { tempHome } from "./cli.js";
import { startWireServer, type WireServer, type WireTurn } from "./wire-server.js";

export type Call = { name: string; args: Record<string, unknown> };

export type RewindWorld = {
	root: string;
	project: string;
	env: NodeJS.ProcessEnv;
	server: WireServer;
	setup: Setup;
	writer: () => SessionWriter;
	/** Sends `prompt`; the reply makes each list of calls in one step, then ends. Returns the prompt's entry. */
	turn: (prompt: string, ...steps: Call[][]) => Promise<UserEntry>;
	/** Rewinds the conversation's session, the leaf moved through the conversation (as the app does). */
	rewind: (target: RewindTarget, options?: RewindOptions) => RewindReport;
	/** A project file's bytes (null: no file), or writes one. */
	read: (name: string) => Buffer | null;
	put: (name: string, bytes: string | Buffer) => void;
	close: () => Promise<void>;
};

let calls = 0;

/** A world in a fresh temp home (gar's session dir under it), the conversation saved to a session. */
export async function rewindWorld(): Promise<RewindWorld> {
	const queue: WireTurn[] = [];
	const server = await startWireServer(() => queue.shift() ?? { text: "done" });
	const { root, project, env } = tempHome();
	const setup = await setupRun(
		{ cwd: project, provider: "openai", model: "gpt-5", baseUrl: server.url },
		{ ...env, OPENAI_API_KEY: "test-key" },
	);
	const writer = () => {
		const saved = setup.conversation.session;
		if (!saved) throw new Error("no session");
		return saved;
	};
	return {
		root,
		project,
		env,
		server,
		setup,
		writer,
		turn: async (prompt, ...steps) => {
			for (const step of steps) {
				queue.push({ toolCalls: step.map((call) => ({ ...call, id: `call_${++calls}` })) });
			}
			queue.push({ text: "done" });
			const result = await setup.conversation.run(prompt);
			if (result.stopReason !== "done") throw new Error(`the run ended: ${result.stopReason} ${result.error ?? ""}`);
			const entry = [...writer().session.entries]
				.reverse()
				.find((e): e is UserEntry => e.type === "user" && e.content === prompt);
			if (!entry) throw new Error(`no prompt ${prompt}`);
			return entry;
		},
		rewind: (target, options = {}) =>
			applyRewind(writer(), target, { moveLeaf: (to) => setup.conversation.branch(to), ...options }),
		read: (name) => {
			try {
				return readFileSync(join(project, name));
			} catch {
				return null;
			}
		},
		put: (name, bytes) => writeFileSync(join(project, name), bytes),
		close: async () => {
			await setup.conversation.close();
			await server.close();
		},
	};
}
