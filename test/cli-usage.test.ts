import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GAR_BIN, runGar, runProgram, tempHome } from "./support/cli.js";
import { type RecordedRequest, startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

type Body = { messages: { role: string; content?: unknown }[] };
/** The last user message the model was sent. */
const lastPrompt = (request: RecordedRequest | undefined) =>
	JSON.stringify((request?.body as Body | undefined)?.messages.filter((m) => m.role === "user").at(-1)?.content);

async function setup(turns: Parameters<typeof startWireServer>[0] = [{ text: "ok" }]) {
	server = await startWireServer(turns);
	const home = tempHome();
	const env = { ...home.env, OPENAI_API_KEY: "k" };
	const run = (args: string[], stdin?: string) =>
		runGar([...args], { env, cwd: home.project, ...(stdin === undefined ? {} : { stdin }) });
	return { ...home, env, run, url: server.url };
}

/** Runs a shell line with gar as `$GAR` (a real pipe, not a socket, on its stdin). */
function shell(
	line: string,
	env: NodeJS.ProcessEnv,
	cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return runProgram("sh", ["-c", line], { env: { ...env, GAR: `${process.execPath} ${GAR_BIN}` }, cwd });
}

describe("the command line does what the person meant", () => {
	it("gar help shows the help; a near-miss of a subcommand is an error, not a run", async () => {
		const { run } = await setup();
		const help = await run(["help"]);
		expect(help.code).toBe(0);
		expect(help.stdout).toContain("Usage: gar");
		expect((await run(["help", "sessions"])).stdout).toContain("Usage: gar sessions");
		const typo = await run(["sesions"]);
		expect(typo.code).toBe(2);
		expect(typo.stderr).toContain("did you mean `gar sessions`?");
		expect(typo.stderr).toContain("gar -- sesions");
		expect(server?.requests).toHaveLength(0);
	});

	it("with -p the words are the prompt, even a subcommand's name; after -- even one starting with -", async () => {
		const { run, url } = await setup([{ text: "a" }, { text: "b" }, { text: "c" }]);
		expect((await run(["-p", "config", "--base-url", url])).code).toBe(0);
		expect(lastPrompt(server?.requests[0])).toContain("config");
		expect((await run(["-p", "--base-url", url, "--", "-v is broken"])).code).toBe(0);
		expect(lastPrompt(server?.requests[1])).toContain("-v is broken");
		expect((await run(["--base-url", url, "--", "sesions"])).code).toBe(0);
		expect(lastPrompt(server?.requests[2])).toContain("sesions");
	});

	it("refuses a missing --cwd, a missing --system-prompt file and an empty --session before any model call", async () => {
		const { run, url, root } = await setup();
		const missingCwd = await run(["-p", "hi", "--cwd", join(root, "nope"), "--base-url", url]);
		expect(missingCwd.code).toBe(2);
		expect(missingCwd.stderr).toContain("no such directory");
		writeFileSync(join(root, "file"), "x");
		const file = await run(["-p", "hi", "--cwd", join(root, "file"), "--base-url", url]);
		expect(file).toMatchObject({ code: 2, stderr: `gar: --cwd ${join(root, "file")}: not a directory\n` });
		for (const command of [["config"], ["sessions"], ["show", "x"], ["trust", "--list"], ["compact", "x"]]) {
			const sub = await run([...command, "--cwd", join(root, "file")]);
			expect(sub, command.join(" ")).toMatchObject({
				code: 2,
				stderr: `gar: --cwd ${join(root, "file")}: not a directory\n`,
			});
		}
		symlinkSync(join(root, "gone"), join(root, "link"));
		const dangling = await run(["-p", "hi", "--cwd", join(root, "link"), "--base-url", url]);
		expect(dangling.stderr).toBe(
			`gar: --cwd ${join(root, "link")}: a symbolic link to ${join(root, "gone")}, which does not exist\n`,
		);
		const prompts = await run(["-p", "hi", "--system-prompt", join(root, "link"), "--base-url", url]);
		expect(prompts.stderr).toContain(
			`--system-prompt ${join(root, "link")}: a symbolic link to ${join(root, "gone")}, which does not exist; to pass text`,
		);
		const schema = await run(["-p", "hi", "--schema", join(root, "link"), "--base-url", url]);
		expect(schema.stderr).toBe(
			`gar: --schema ${join(root, "link")}: a symbolic link to ${join(root, "gone")}, which does not exist\n`,
		);
		const resumed = await run(["-p", "hi", "--session", join(root, "link"), "--base-url", url]);
		expect(resumed.stderr).toBe(
			`gar: no session file ${join(root, "link")}: a symbolic link to ${join(root, "gone")}, which does not exist\n`,
		);
		const prompt = await run(["-p", "hi", "--system-prompt", "prompts/rules.md", "--base-url", url]);
		expect(prompt.code).toBe(2);
		expect(prompt.stderr).toContain("--system-prompt prompts/rules.md: no such file; to pass text");
		expect((await run(["-p", "hi", "--append-system-prompt", "notes.txt", "--base-url", url])).code).toBe(2);
		const session = await run(["-p", "hi", "--session", "", "--base-url", url]);
		expect(session.code).toBe(2);
		expect(session.stderr).toContain("--session needs a session id");
		expect(server?.requests).toHaveLength(0);
		// Text that merely mentions a slash is still text.
		expect((await run(["-p", "hi", "--system-prompt", "Answer in English / French", "--base-url", url])).code).toBe(0);
	});

	it("--no-stdin leaves piped stdin out; more than --max-stdin bytes is refused naming the flag", async () => {
		const { env, project, url } = await setup([{ text: "a" }, { text: "b" }]);
		const ignored = await shell(`echo PIPED | $GAR -p task --no-stdin --base-url ${url}`, env, project);
		expect(ignored.code).toBe(0);
		expect(lastPrompt(server?.requests[0])).not.toContain("PIPED");
		const big = `head -c 1100000 /dev/zero | tr '\\0' a`;
		const refused = await shell(`${big} | $GAR -p task --base-url ${url}`, env, project);
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain("--max-stdin");
		const allowed = await shell(`${big} | $GAR -p task --max-stdin 2000000 --base-url ${url}`, env, project);
		expect(allowed.code).toBe(0);
	});

	it("--bash-timeout takes fractions, like the config; JSON costs are rounded to 6 decimals", async () => {
		const usage = { input: 333, output: 7 };
		const { run, url } = await setup([{ text: "a", usage }]);
		const result = await run([
			"-p",
			"hi",
			"--bash-timeout",
			"0.5",
			"--model",
			"gpt-5",
			"--output",
			"json",
			"--base-url",
			url,
		]);
		expect(result.code).toBe(0);
		const cost = JSON.parse(result.stdout).costUsd as number;
		expect(cost).toBe(0.000486); // (333 × $1.25 + 7 × $10) / 1M = 0.00048625
		expect(String(cost).split(".")[1]?.length ?? 0).toBeLessThanOrEqual(6);
	});

	it("gar help NAME: an unknown name is an error naming the commands; --help lists help", async () => {
		const { run } = await setup();
		const unknown = await run(["help", "foo"]);
		expect(unknown.code).toBe(2);
		expect(unknown.stdout).toBe("");
		expect(unknown.stderr).toBe(
			'gar: help: no command "foo"; the commands are demo, config, show (tree), changes, rewind, sessions, fork, label, name, compact, request, context, trust, untrust, hooks, replay, export, acp, mcp, help\n',
		);
		expect((await run(["help", "sesions"])).stderr).toBe(
			'gar: help: no command "sesions"; did you mean `gar help sessions`?\n',
		);
		expect((await run(["help", "tree"])).stdout).toContain("Usage: gar show|tree");
		expect((await run(["help", "me", "fix", "it"])).stderr).toBe(
			'gar: help takes one command name; to send "help me fix it" to the model, use `gar -- help me fix it`\n',
		);
		const help = await run(["--help"]);
		expect(help.stdout).toMatch(/\n {2}help \[command\.\.\.\] +show the help of gar or of one command\n/);
		expect(server?.requests).toHaveLength(0);
	});

	it("a misspelt command is named even before an option it does not take; commander's errors read gar:", async () => {
		const { run } = await setup();
		const typo = await run(["sessons", "--all"]);
		expect(typo.code).toBe(2);
		expect(typo.stderr).toContain("gar: did you mean `gar sessions`?");
		const option = await run(["--bogus"]);
		expect(option).toMatchObject({ code: 2, stderr: "gar: unknown option '--bogus'\n" });
		const missing = await run(["show"]);
		expect(missing).toMatchObject({ code: 2, stderr: "gar: missing required argument 'session'\n" });
		const choice = await run(["--output", "xml", "-p", "hi"]);
		expect(choice.code).toBe(2);
		expect(choice.stderr).toMatch(/^gar: option '--output <format>' argument 'xml' is invalid/);
		expect(server?.requests).toHaveLength(0);
	});

	it("gar config names the model in use and its source, and takes --profile", async () => {
		const { run, root } = await setup();
		const plain = await run(["config"]);
		expect(plain.stdout).toMatch(/^model in use: \S+ {2}\(the default for provider \w+\)/);
		mkdirSync(join(root, "config", "gar"), { recursive: true });
		writeFileSync(join(root, "config", "gar", "config.toml"), '[profiles.work]\nmodel = "gpt-5"\n');
		const work = await run(["config", "--profile", "work"]);
		expect(work.code).toBe(0);
		expect(work.stdout).toMatch(/^model in use: gpt-5 {2}\(model, profile work/);
		expect(JSON.parse((await run(["config", "--json", "--profile", "work"])).stdout).modelInUse).toMatchObject({
			model: "gpt-5",
			key: "model",
		});
	});

	it("gar show (and gar tree) print the session tree with ids, prompts, labels and the current leaf", async () => {
		const { run, url, root } = await setup([{ text: "first answer" }, { text: "second answer" }]);
		const first = JSON.parse(
			(await run(["-p", "fix the bug\nwith details", "--output", "json", "--base-url", url])).stdout,
		);
		const id: string = first.sessionId;
		const tree = JSON.parse((await run(["tree", id, "--json"])).stdout);
		const [change, user, answer] = tree.nodes;
		expect(tree.nodes.map((n: { type: string }) => n.type)).toEqual(["model_change", "user", "assistant"]);
		expect(change.summary).toMatch(/^openai /);
		expect(user).toMatchObject({ depth: 0, summary: "fix the bug" });
		expect(answer).toMatchObject({ current: true, summary: "first answer" });
		await run(["label", id, answer.id, "good"]);
		await run(["-p", "another way", "--session", id, "--at", user.id, "--base-url", url]);
		const shown = await run(["show", id]);
		expect(shown.code).toBe(0);
		expect(shown.stdout).toMatch(new RegExp(`${user.id}\\s+user\\s+fix the bug {2}2 branches`));
		expect(shown.stdout).toMatch(new RegExp(`\n├─ ${answer.id}\\s+assistant\\s+first answer {2}\\[good\\]`));
		expect(shown.stdout).toMatch(
			/\n└─ \w{10}\s+user\s+another way\n {3}\w{10}\s+assistant\s+second answer {2}← current leaf/,
		);
		expect(shown.stdout).not.toMatch(/system_prompt|request|\brun\b/);
		const all = await run(["sessions", "--all"]);
		expect(all.stdout).toMatch(/ID\s+NAME\s+DATE\s+PROJECT\s+ENTRIES\s+FIRST PROMPT/);
		expect(all.stdout).toContain("~/project");
		expect(readdirSync(root)).toContain("project");
	});
});
