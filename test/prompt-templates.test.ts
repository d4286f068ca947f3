// Prompt templates (README "Prompt templates"): Markdown files that become slash commands, their front matter and
// arguments, which file wins, what cannot run and why, and what reaches the model (the user's message; the system
// prompt never grows).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { trustCommand } from "../src/commands/trust.js";
import { setupRun } from "../src/modes/setup.js";
import { expandTemplate, loadTemplates, parseTemplate } from "../src/prompt/templates.js";
import { promptTemplates } from "../src/ui/prompt-templates.js";
import {
	type CommandContext,
	commandCompleter,
	commandNames,
	helpText,
	runCommand,
} from "../src/ui/screens/commands.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";
import { tempHome } from "./support/cli.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

describe("a template's text", () => {
	it("reads description and argument-hint from the front matter (quoted or not), and the body after it", () => {
		expect(
			parseTemplate('---\ndescription: "Review a file"\nargument-hint: FILE [FOCUS]\nmodel: x\n---\n\nReview $1.\n'),
		).toEqual({ description: "Review a file", argumentHint: "FILE [FOCUS]", body: "Review $1." });
		expect(parseTemplate("\uFEFF---\r\ndescription: 'it''s'\r\n---\r\nGo.")).toMatchObject({ body: "Go." });
		expect(parseTemplate("No front matter.\n")).toEqual({
			description: null,
			argumentHint: null,
			body: "No front matter.",
		});
	});

	it("names what is wrong with a malformed front matter", () => {
		expect(parseTemplate("---\ndescription: x\nGo.")).toEqual({ problem: "its front matter has no closing --- line" });
		expect(parseTemplate("---\njust words\n---\nGo.")).toEqual({
			problem: 'front matter line 2 is not "key: value": just words',
		});
		expect(parseTemplate('---\ndescription: "open\n---\nGo.')).toEqual({
			problem: "front matter line 2: a quote is not closed",
		});
		expect(parseTemplate("---\ndescription: |\n---\nGo.")).toEqual({
			problem: "front matter line 2: multi-line values are not supported",
		});
		expect(parseTemplate("---\ndescription: x\n---\n\n")).toEqual({ problem: "it has no text after its front matter" });
	});

	it("fills in $ARGUMENTS, {{args}} and $1…$9 (quotes keep a phrase together; a missing one is empty)", () => {
		const body = "All: $ARGUMENTS | {{args}} | {{ args }} | first $1 | second $2 | ninth [$9]";
		expect(expandTemplate({ body }, `src/a.ts "the error path"`)).toBe(
			'All: src/a.ts "the error path" | src/a.ts "the error path" | src/a.ts "the error path" | first src/a.ts | second the error path | ninth []',
		);
		// A template without placeholders gets the arguments as a paragraph of their own.
		expect(expandTemplate({ body: "Explain this code." }, "src/a.ts")).toBe("Explain this code.\n\nsrc/a.ts");
		expect(expandTemplate({ body: "Explain this code." }, "  ")).toBe("Explain this code.");
	});
});

/** A home with a user prompts folder and a project with its own, both with files. */
function world() {
	const home = tempHome();
	const config = join(home.env.XDG_CONFIG_HOME as string, "gar");
	const user = join(config, "prompts");
	const project = join(home.project, ".gar", "prompts");
	mkdirSync(user, { recursive: true });
	mkdirSync(project, { recursive: true });
	return { ...home, config, user, prompts: project };
}

describe("the templates in the folders", () => {
	it("a project's template wins over the user's of that name; built-ins cannot be shadowed; bad ones say why", () => {
		const w = world();
		writeFileSync(join(w.user, "review.md"), "---\ndescription: user review\n---\nUser review $1.");
		writeFileSync(join(w.user, "explain.md"), "Explain $ARGUMENTS.");
		writeFileSync(join(w.prompts, "review.md"), "---\ndescription: project review\n---\nProject review $1.");
		writeFileSync(join(w.prompts, "help.md"), "Not the help.");
		writeFileSync(join(w.prompts, "init.md"), "Not init.");
		writeFileSync(join(w.prompts, "broken.md"), "---\ndescription: x\n");
		writeFileSync(join(w.prompts, "two words.md"), "x");
		writeFileSync(join(w.prompts, "notes.txt"), "not a template");
		const all = loadTemplates({ user: w.user, project: w.prompts }, commandNames());
		const brief = all.map((t) => [t.name, t.source, t.description, t.problem ?? "ok"]);
		expect(brief).toEqual([
			["init", "built-in", "write or update AGENTS.md for this project", "ok"],
			["broken", "project", null, "its front matter has no closing --- line"],
			["explain", "user", null, "ok"],
			["help", "project", null, "/help is a built-in command: a template cannot replace it (rename the file)"],
			["init", "project", null, "/init is a built-in command: a template cannot replace it (rename the file)"],
			["review", "project", "project review", "ok"],
			[
				"two words",
				"project",
				null,
				'"two words" cannot be a command name (letters, digits, - and _ only): rename the file',
			],
		]);
	});

	it("uses a project's folder only when the project is trusted, and says so once otherwise", () => {
		const w = world();
		writeFileSync(join(w.prompts, "deploy.md"), "Deploy it.");
		const home = w.root;
		const untrusted = promptTemplates(w.project, w.env, home, commandNames());
		expect(untrusted.list().map((t) => t.name)).toEqual(["init"]);
		expect(untrusted.skipped).toBe(
			'not using the prompt template in ~/project/.gar/prompts: the project is not trusted (run "gar trust ~/project" to use them)',
		);
		trustCommand({ configDir: w.config, cwd: w.project, write: () => {} }, undefined, {});
		const trusted = promptTemplates(w.project, w.env, home, commandNames());
		expect(trusted.skipped).toBeNull();
		expect(trusted.list().map((t) => [t.name, t.source])).toEqual([
			["init", "built-in"],
			["deploy", "project"],
		]);
		// A file added later is found; one edited later runs as it is now.
		writeFileSync(join(w.user, "later.md"), "Later $1.");
		expect(trusted.list().map((t) => t.name)).toContain("later");
		const deploy = trusted.list().find((t) => t.name === "deploy");
		writeFileSync(join(w.prompts, "deploy.md"), "Deploy it carefully.");
		expect(deploy?.expand("")).toBe("Deploy it carefully.");
	});
});

describe("templates as slash commands", () => {
	it("are completed with where each comes from, and one that cannot run is listed with the reason", () => {
		const w = world();
		writeFileSync(join(w.user, "review.md"), "---\ndescription: review a file\nargument-hint: FILE\n---\nReview $1.");
		writeFileSync(join(w.user, "bad.md"), "---\nnope\n---\nx");
		const templates = promptTemplates(w.project, w.env, w.root, commandNames()).list;
		const complete = commandCompleter({ models: () => [], themes: () => [], templates });
		expect(complete("/rev")?.items).toEqual([
			{ value: "/review ", label: "/review FILE", description: "review a file (user)" },
		]);
		expect(complete("/in")?.items.map((i) => [i.label, i.description])).toEqual([
			["/inspector", "show or hide the inspector (also Tab)"],
			["/init [focus]", "write or update AGENTS.md for this project (built-in)"],
		]);
		expect(complete("/ba")?.items[0]?.description).toBe('✗ not run: front matter line 2 is not "key: value": nope');
		expect(helpText(templates())).toContain("Prompt templates (sent as your message)\n  /init [focus]");
	});

	it("send their text as the user's message: the request's last message is it, the system prompt is unchanged", async () => {
		const w = world();
		writeFileSync(join(w.user, "review.md"), "---\ndescription: review\n---\nReview $1, focusing on $2.");
		writeFileSync(join(w.user, "bad.md"), "---\nnope\n---\nx");
		server = await startWireServer([{ text: "first" }, { text: "reviewed" }, { text: "init done" }]);
		const setup = await setupRun(
			{ cwd: w.project, noSession: true, provider: "openai", model: "gpt-5", baseUrl: server.url },
			{ ...w.env, OPENAI_API_KEY: "test-key" },
		);
		const notices: string[] = [];
		setup.channel.subscribe((e) => {
			if (e.type === "notice") notices.push(e.message);
		});
		const sent: Promise<unknown>[] = [];
		const ctx: CommandContext = {
			setup,
			store: new UiStore(initialView(setup.conversation.model)),
			input: new InputModel(),
			exit: () => {},
			columns: () => 120,
			writeTerminal: () => {},
			templates: promptTemplates(w.project, w.env, w.root, commandNames()).list,
			send: (text) => sent.push(setup.conversation.run(text)),
		};
		await setup.conversation.run("hello");
		const body = (i: number) =>
			server?.requests.filter((r) => r.method === "POST")[i]?.body as {
				messages: { role: string; content: unknown }[];
			};
		await runCommand('/review src/a.ts "the error path"', ctx);
		await Promise.all(sent);
		const messages = body(1).messages;
		expect(messages.at(-1)).toEqual({ role: "user", content: "Review src/a.ts, focusing on the error path." });
		expect(messages[0]).toEqual(body(0).messages[0]);
		expect(messages[0]?.role).toBe("system");

		await runCommand("/bad now", ctx);
		expect(notices.at(-1)).toBe(
			'/bad (user prompt template) is not run: front matter line 2 is not "key: value": nope',
		);
		expect(ctx.input.text).toBe("/bad now");
		expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(2);

		await runCommand("/init keep it short", ctx);
		await Promise.all(sent);
		const init = body(2).messages.at(-1)?.content as string;
		expect(init).toMatch(/^Write or update AGENTS\.md at the root of this project/);
		expect(init).toMatch(/keep it short$/);
		setup.conversation.close();
	});
});
