// Hooks in the app, in a real terminal: the line of a blocked call in the chat, a hook's "ask" in the approval
// dialog with its reason, and the inspector's count.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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

const GUARD = `input=$(cat)
case "$input" in
  *'rm -rf'*) echo 'rm -rf is not allowed here' >&2; exit 2 ;;
  *deploy*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"it deploys to production"}}' ;;
esac`;

describe.skipIf(!HAS_TMUX)("hooks in the full-screen app", IN_TMUX, () => {
	it("shows the blocked call's line in the chat, asks with the hook's reason, and counts hook runs", async () => {
		server = await startWireServer([
			{ toolCalls: [{ id: "b1", name: "bash", args: { command: "rm -rf build" } }] },
			{ toolCalls: [{ id: "b2", name: "bash", args: { command: "echo deploy > deployed.txt" } }] },
			{ text: "Done." },
		]);
		const { root, project, env } = tempHome();
		mkdirSync(join(project, "build"));
		const guard = join(root, "guard.sh");
		writeFileSync(guard, `#!/bin/sh\n${GUARD}\n`);
		chmodSync(guard, 0o755);
		mkdirSync(join(root, "config", "gar"), { recursive: true });
		writeFileSync(
			join(root, "config", "gar", "config.toml"),
			`[[hooks.PreToolUse]]\nmatcher = "Bash"\ncommand = "${guard}"\n`,
		);
		const garCmd = garInTerminal({ ...env, OPENAI_API_KEY: "test-key" });
		const args = `--provider openai --model gpt-5 --base-url ${server.url}`;
		tmux = TmuxSession.start(`cd '${project}' && ${garCmd} ${args}; sleep 5`, {
			columns: 120,
			rows: 40,
		});
		await tmux.waitFor(/state\s+● idle/);
		tmux.type("clean and deploy");
		tmux.send(["Enter"]);

		// The first call is blocked: its line says which hook and why, at the call.
		let screen = await tmux.waitFor(/pre-tool hook guard\.sh \(bash\) blocked: rm -rf is not allowed here/);
		expect(existsSync(join(project, "build"))).toBe(true);

		// The second asks, though --approve is off: the dialog says why.
		screen = await tmux.waitFor(/allow once/);
		expect(screen).toContain("the PreToolUse hook guard.sh: it deploys to production");
		expect(screen).toContain("$ echo deploy > deployed.txt");
		tmux.type("y");
		screen = await tmux.waitFor(/Done\./);
		expect(existsSync(join(project, "deployed.txt"))).toBe(true);
		// Each hook's line is in its call's block: under its header, before the next call's (a summary too long for the
		// header row, like "exit 0 · changed 1 file: …", has a row of its own between them).
		const lines = screen.split("\n").map((line) => line.split("│")[0] ?? "");
		const under = (call: string) => {
			const at = lines.findIndex((line) => line.startsWith(`▸ bash ${call}`));
			const next = lines.findIndex((line, i) => i > at && /^[▸•]/.test(line));
			return lines.slice(at + 1, next < 0 ? undefined : next).find((line) => line.includes("↪"));
		};
		expect(under("echo deploy")).toMatch(/^ {2}↪ pre-tool hook guard\.sh \(bash\) asks for approval: it deploys/);
		expect(under("rm -rf build")).toMatch(/^ {2}↪ pre-tool hook guard\.sh \(bash\) blocked: rm -rf is not/);
		expect(screen).toMatch(/hooks\s+2 runs · 1 blocked/);
	}, 30_000);
});
