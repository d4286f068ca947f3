import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatConfig, formatConfigJson, loadConfig } from "../src/config/index.js";
import { maskExcerpt, stripUserinfo } from "../src/config/mask.js";
import { configProblem, makeWorld, type World } from "./fixtures/config/world.js";

let w: World;
beforeEach(() => {
	w = makeWorld();
});
afterEach(() => w.cleanup());

const KEY = "sk-proj-SECRETSECRETSECRET0123456789";
const load = (env: NodeJS.ProcessEnv = {}, flags = {}) => loadConfig({ cwd: w.project, env, flags, home: w.home });
const problem = (env: NodeJS.ProcessEnv = {}, flags = {}) => configProblem(() => load(env, flags));

describe("syntax errors", () => {
	it.each([
		["an unterminated api_key", `[providers.openai]\napi_key = "${KEY}\n`],
		["an unquoted api_key", `[providers.openai]\napi_key = ${KEY}\n`],
		["junk after an api_key", `[providers.openai]\napi_key = "${KEY}" x\n`],
		["an api_key on the line before the error", `[providers.openai]\napi_key = "${KEY}"\nmodel = \n`],
		["an api_key in an inline table", `providers = { openai = { api_key = "${KEY}" } x\n`],
	])("never echo the key: %s", (_name, text) => {
		w.write(w.userFile, text);
		const message = problem();
		expect(message).toMatch(/^~\/\.config\/gar\/config\.toml:\d+:\d+: invalid TOML: /);
		expect(message).toContain("api_key");
		expect(message).not.toContain("SECRETSECRET");
	});

	it("keep the rest of the excerpt", () => {
		w.write(w.userFile, 'model = "m"\n[agent\n');
		expect(problem()).toContain('1:  model = "m"\n2:  [agent');
	});
});

describe("URLs with userinfo", () => {
	it("are shown without it in gar config", () => {
		w.write(w.userFile, 'base_url = "https://me:hunter2@llm.example.com/v1"\n');
		const r = load();
		expect(r.config.baseUrl).toBe("https://me:hunter2@llm.example.com/v1");
		expect(formatConfig(r)).toContain('base_url = "https://llm.example.com/v1"  (~/.config/gar/config.toml:1)');
		expect(formatConfigJson(r)).not.toContain("hunter2");
	});

	it("are shown without it in errors from files, env and flags", () => {
		w.write(w.userFile, 'base_url = "ftp://me:hunter2@host/"\n');
		expect(problem()).toBe(
			'~/.config/gar/config.toml:1: base_url: expected an http(s) URL such as "http://localhost:11434/v1", got "ftp://host/"',
		);
		w.write(w.userFile, "");
		expect(problem({ OPENAI_BASE_URL: "ftp://me:hunter2@host" })).not.toContain("hunter2");
		expect(problem({}, { baseUrl: "ftp://tok@host" })).toBe(
			'--base-url: expected an http(s) URL such as "http://localhost:11434/v1", got "ftp://host"',
		);
	});

	it("stripUserinfo leaves other text alone", () => {
		expect(stripUserinfo("see https://a:b@h.example/x and http://t@h2/ or me@example.com")).toBe(
			"see https://h.example/x and http://h2/ or me@example.com",
		);
		expect(maskExcerpt('3:  api_key="sk-ant-abcdefghijklmnop"')).toBe('3:  api_key="…"');
	});
});

describe("messages", () => {
	it("show a hostile file's terminal controls visibly", () => {
		w.write(w.userFile, '"\\u001b]0;pwned\\u0007" = 1\n');
		const r = load();
		expect(r.warnings[0]).toContain('unknown key "␛]0;pwned^G" at top level');
		expect(r.warnings.join("")).not.toContain("\x1b");
		w.write(w.userFile, 'model = "\\u001b[2J"\n[profiles."\\u001b[2J"]\n');
		const text = formatConfig(load({}, { profile: "\x1b[2J" }));
		expect(text).toContain('model = "\\u001b[2J"  (~/.config/gar/config.toml:1)');
		expect(text).toContain('profile = "\\u001b[2J"  (flag --profile)');
		expect(text).not.toContain("\x1b");
	});
});

describe("maskExcerpt", () => {
	it("hides values of secret-named keys but keeps api_key_env's variable name", () => {
		expect(maskExcerpt('2:  token = "abc"\n3:  "client_secret" = "xyz"\n4:  api_key_env = "MY_KEY"')).toBe(
			'2:  token = "…"\n3:  "client_secret" = "…"\n4:  api_key_env = "MY_KEY"',
		);
	});
});
