// Writes examples/demo-session.jsonl: gar demo's task, run once for real by the scripted provider (real tools in a
// fresh copy of the demo project, the real session writer, the model's words streamed at a reading pace), so
// `gar replay examples/demo-session.jsonl` shows a whole session without a key. Run once; the file is committed:
//   node --import tsx scripts/make-demo-session.ts [out.jsonl]
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DEMO_PROMPT, demoProjectIn, demoScript } from "../src/demo/project.js";
import { createScriptedProvider } from "../src/llm/scripted.js";
import { setupRun } from "../src/modes/setup.js";

/** The price the inspector shows comes from the model table: the scripted replies are priced as this model. */
const PRICED_AS = "claude-sonnet-4-5";

async function main(out: string): Promise<void> {
	const home = mkdtempSync(join(tmpdir(), "gar-demo-home-"));
	// A fixed folder name, so the paths in the file read like a project's.
	const cwd = join(tmpdir(), "stats");
	rmSync(cwd, { recursive: true, force: true });
	demoProjectIn(cwd);
	const sessions = join(home, "sessions");
	const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: home };
	try {
		const provider = createScriptedProvider(demoScript(90));
		const setup = await setupRun({ cwd, sessionDir: sessions }, env, { override: { provider, model: PRICED_AS } });
		const result = await setup.conversation.run({ text: DEMO_PROMPT });
		setup.conversation.close();
		if (result.stopReason !== "done") throw new Error(`the demo run ended with ${result.stopReason}`);
		const folder = readdirSync(sessions).map((name) => join(sessions, name))[0] ?? "";
		const file = readdirSync(folder).find((name) => name.endsWith(".jsonl"));
		if (!file) throw new Error("the run saved no session");
		mkdirSync(resolve(out, ".."), { recursive: true });
		copyFileSync(join(folder, file), out);
		process.stdout.write(`wrote ${out}\n`);
	} finally {
		rmSync(home, { recursive: true, force: true });
		rmSync(cwd, { recursive: true, force: true });
	}
}

await main(resolve(process.argv[2] ?? "examples/demo-session.jsonl"));
