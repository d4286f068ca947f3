import { afterEach, describe, expect, it } from "vitest";
import { tempHome } from "./support/cli.js";
import { garInTerminal, HAS_TMUX, IN_TMUX, TmuxSession } from "./support/tmux.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
	tmux?.kill();
	tmux = undefined;
	await server?.close();
	server = undefined;
});

/** The built app in tmux with `args`, in a temp home, against the wire server. */
function launch(project: string, env: NodeJS.ProcessEnv, args: string, columns: number): TmuxSession {
	const garCmd = garInTerminal({ ...env, OPENAI_API_KEY: "test-key" });
	const gar = `${garCmd} ${args}`;
	return TmuxSession.start(`cd '${project}' && ${gar}; sleep 5`, { columns, rows: 24 });
}

describe.skipIf(!HAS_TMUX)("what the app shows of a reply that stalls", IN_TMUX, () => {
	it("says how long no data came and the configured idle timeout, then shows the cut reply's usage as estimated", async () => {
		// Two deltas, then an open connection that sends nothing.
		server = await startWireServer([
			{
				text: ["Let me look ", "at the parser ", "now."],
				usage: { input: 900, output: 300 },
				fault: { kind: "silence", afterDeltas: 2 },
			},
		]);
		const { project, env } = tempHome();
		tmux = launch(project, env, `--model gpt-5 --idle-timeout 7 --base-url ${server.url}`, 120);
		await tmux.waitFor(/Enter send/);
		tmux.type("fix the parser");
		tmux.send(["Enter"]);
		// The clock ticks with no event coming: the stall shows after 5 s, with the timeout from the flag.
		let screen = await tmux.waitFor(/no data for \d+ s/, 10_000);
		expect(screen).toMatch(/state\s+● no data for [56] s\s*│?\n.*\(idle timeout 7 s\)/);
		expect(screen).not.toMatch(/streaming · \d+ tok\/s/);
		// The idle timeout ends the reply; what streamed is counted, marked as an estimate, and priced.
		screen = await tmux.waitFor(/error · 1 turn/, 10_000);
		expect(screen).toMatch(/error · 1 turn · ↑~\d+ ↓~\d+ · ~\$0\.\d+/);
		expect(screen).toMatch(/tokens\s+↑~\d+ ↓~\d+/);
	}, 40_000);
});
