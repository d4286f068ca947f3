import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/index.js";
import { configProblem, makeWorld, type World } from "./fixtures/config/world.js";

let w: World;
beforeEach(() => {
	w = makeWorld();
});
afterEach(() => w.cleanup());

const load = (env: NodeJS.ProcessEnv = {}, flags = {}) => loadConfig({ cwd: w.project, env, flags, home: w.home });

const problem = configProblem;

describe("TOML syntax errors", () => {
	it("name the file, line and column", () => {
		w.write(w.userFile, 'model = "ok"\n\n[agent]\nmax_turns = = 3\n');
		const message = problem(load);
		expect(message).toMatch(/^~\/\.config\/gar\/config\.toml:4:\d+: invalid TOML: /);
		expect(message).toContain("max_turns = = 3");
	});

	it("explain a top-level key clashing with a table", () => {
		w.write(w.projectFile, 'provider = "openai"\n[provider.openai]\nmodel = "x"\n');
		const message = problem(load);
		expect(message).toContain(`${w.projectFile}:2:`);
		expect(message).toContain('"provider" is already defined on line 1');
		expect(message).toContain("a key and a table cannot share a name");
	});
});

describe("invalid values", () => {
	it("name the file, the key's line, the dotted key and the expectation", () => {
		w.write(w.userFile, '# gar\nmodel = "m"\n\n[agent]\napprove = true\nmax_turns = "ten"\n');
		expect(problem(load)).toBe('~/.config/gar/config.toml:6: agent.max_turns: expected a whole number ≥ 1, got "ten"');
	});

	it("list every problem at once and apply nothing", () => {
		w.write(w.userFile, "[agent]\nmax_turns = 0\nthinking = 'max'\nauto_approve = ['read', 'rm']\n");
		w.write(w.projectFile, "[tui]\ninspector = 'yes'\n");
		const message = problem(() => load({ GAR_PROVIDER: "gemini" }, { bashTimeout: "-1" }));
		expect(message.split("\n")).toEqual([
			"~/.config/gar/config.toml:2: agent.max_turns: expected a whole number ≥ 1, got 0",
			'~/.config/gar/config.toml:3: agent.thinking: expected one of "off", "low", "medium", "high", got "max"',
			'~/.config/gar/config.toml:4: agent.auto_approve[1]: expected one of "read", "write", "edit", "bash", got "rm"',
			`${w.projectFile}:2: tui.inspector: expected true or false, got "yes"`,
			'environment variable GAR_PROVIDER: expected one of "anthropic", "openai", got "gemini"',
			'--bash-timeout: expected a number of seconds > 0, got "-1"',
		]);
	});

	it("find keys written as dotted keys or inline tables", () => {
		w.write(w.userFile, 'agent.bash_timeout = "slow"\nproviders = { openai = { base_url = "localhost:11434" } }\n');
		expect(problem(load).split("\n")).toEqual([
			'~/.config/gar/config.toml:1: agent.bash_timeout: expected a number of seconds > 0, got "slow"',
			'~/.config/gar/config.toml:2: providers.openai.base_url: expected an http(s) URL such as "http://localhost:11434/v1", got "localhost:11434"',
		]);
	});

	it("name bad env values by variable", () => {
		expect(problem(() => load({ GAR_MAX_TURNS: "ten" }))).toBe(
			'environment variable GAR_MAX_TURNS: expected a whole number ≥ 1, got "ten"',
		);
		expect(problem(() => load({ GAR_THINKING: "HIGH" }))).toContain("GAR_THINKING");
		expect(problem(() => load({ OPENAI_BASE_URL: "nope" }))).toContain("OPENAI_BASE_URL");
	});

	it("reject a table where a value belongs, and a value where a table belongs", () => {
		w.write(w.userFile, '[profile.local]\nmodel = "x"\n');
		expect(problem(load)).toBe(
			"~/.config/gar/config.toml:1: profile: expected a profile name (a non-empty string), got a table; tables go under [profiles.NAME]",
		);
		w.write(w.userFile, 'agent = "fast"\n');
		expect(problem(load)).toBe('~/.config/gar/config.toml:1: agent: expected a table [agent], got "fast"');
	});

	it("never print a secret that landed in the wrong key", () => {
		w.write(w.userFile, '[providers.openai]\napi_key_env = "sk-proj-abcdefghijklmnopqrstuvwxyz"\n');
		const message = problem(load);
		expect(message).toContain("providers.openai.api_key_env: expected the name of an environment variable");
		expect(message).not.toContain("abcdefgh");
	});
});

describe("unknown keys", () => {
	it("warn with the closest known key and are otherwise ignored", () => {
		w.write(w.userFile, 'model = "m"\n\n[agent]\nmax_turn = 5\n');
		const r = load();
		expect(r.warnings).toEqual([
			'unknown key "max_turn" in [agent] (~/.config/gar/config.toml:4); did you mean "max_turns"?',
		]);
		expect(r.config.agent.maxTurns).toBe(50);
		expect(r.config.model).toBe("m");
	});

	it("suggest across spellings and tables", () => {
		w.write(
			w.projectFile,
			'modle = "m"\nthinking = "high"\n[agent]\nmodel = "x"\nmaxTurns = 3\n[providers.ollama]\nbase_url = "http://localhost:11434/v1"\n[profiles.p]\nbaseurl = "x"\n',
		);
		const shown = w.projectFile;
		expect(load().warnings).toEqual([
			`unknown key "modle" at top level (${shown}:1); did you mean "model"?`,
			`unknown key "thinking" at top level (${shown}:2); "thinking" belongs in [agent]`,
			`unknown key "model" in [agent] (${shown}:4); "model" is a top-level key: put it above the first [table] header`,
			`unknown key "maxTurns" in [agent] (${shown}:5); did you mean "max_turns"?`,
			`unknown key "ollama" in [providers] (${shown}:6); providers are "anthropic" and "openai" — for another server add [profiles.ollama] with provider = "openai" and base_url`,
			`unknown key "baseurl" in [profiles.p] (${shown}:9); did you mean "base_url"?`,
		]);
	});

	it("do not hide a real error next to them", () => {
		w.write(w.userFile, "[agent]\nmax_turn = 5\nmax_turns = -1\n");
		expect(problem(load)).toContain("agent.max_turns: expected a whole number ≥ 1, got -1");
	});
});

describe("inline api_key", () => {
	const text = '[providers.anthropic]\napi_key = "sk-ant-api03-0123456789abcdefghij"\n';

	it.skipIf(process.platform === "win32")("warns when the file is readable by others", () => {
		w.write(w.userFile, text, 0o644);
		expect(load().warnings).toEqual([
			"~/.config/gar/config.toml holds an api_key but is readable by others (mode 644): run chmod 600 ~/.config/gar/config.toml, or use api_key_env to read the key from the environment",
		]);
	});

	it("is quiet in a 0600 file", () => {
		w.write(w.userFile, text, 0o600);
		const r = load();
		expect(r.warnings).toEqual([]);
		expect(r.config.providers.anthropic.apiKey).toBe("sk-ant-api03-0123456789abcdefghij");
		expect(r.config.provider).toBe("anthropic");
	});

	it("in a profile is checked too", () => {
		w.write(w.userFile, '[profiles.x]\nprovider = "openai"\napi_key = "secret-secret-secret"\n', 0o640);
		expect(load().warnings[0]).toContain("holds an api_key but is readable by others (mode 640)");
	});
});
