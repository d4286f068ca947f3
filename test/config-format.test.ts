import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { configCommand } from "../src/commands/config.js";
import {
	ConfigError,
	formatConfig,
	formatConfigJson,
	loadConfig,
	maskSecret,
	resolveRun,
} from "../src/config/index.js";
import { defaultModel as modelDefault } from "../src/llm/models.js";
import { makeWorld, type World } from "./fixtures/config/world.js";

let w: World;
beforeEach(() => {
	w = makeWorld();
});
afterEach(() => w.cleanup());

const load = (env: NodeJS.ProcessEnv = {}, flags = {}) => loadConfig({ cwd: w.project, env, flags, home: w.home });
const defaultModel = (provider: string) => (provider === "anthropic" ? "claude-default" : "gpt-default");

const INLINE = "sk-proj-0123456789abcdefghijklmnopqrstuvwxyzABCD";
const ENV_KEY = "sk-ant-api03-ZYXWVUTSRQPONMLKJIHGFEDCBA-wxyz";

describe("maskSecret", () => {
	it("shows a known prefix and at most the last 4 characters", () => {
		expect(maskSecret(INLINE)).toBe("sk-proj-…ABCD");
		expect(maskSecret(ENV_KEY)).toBe("sk-ant-…wxyz");
		expect(maskSecret("abcdefghijklmnop")).toBe("…mnop");
		expect(maskSecret("short-key")).toBe("…");
		expect(maskSecret("sk-proj-1234567890")).toBe("…");
	});
});

describe("formatConfig", () => {
	it("prints every effective key with its source and masks keys", () => {
		w.write(
			w.userFile,
			`model = "claude-x"\n\n[providers.openai]\nbase_url = "http://localhost:11434/v1"\napi_key = "${INLINE}"\n`,
		);
		const result = load({ ANTHROPIC_API_KEY: ENV_KEY, GAR_THINKING: "low" }, { maxTurns: 8 });
		const text = formatConfig(result);
		expect(text).toBe(
			[
				'provider = "anthropic"  (env ANTHROPIC_API_KEY)',
				'model = "claude-x"  (~/.config/gar/config.toml:1)',
				'providers.anthropic.api_key_env = "ANTHROPIC_API_KEY"  (default)',
				'providers.openai.api_key_env = "OPENAI_API_KEY"  (default)',
				'providers.openai.api_key = "sk-proj-…ABCD"  (~/.config/gar/config.toml:5)',
				'providers.openai.base_url = "http://localhost:11434/v1"  (~/.config/gar/config.toml:4)',
				"agent.max_turns = 8  (flag --max-turns)",
				"agent.approve = false  (default)",
				"agent.auto_approve = []  (default)",
				"agent.bash_timeout = 120  (default)",
				'agent.thinking = "low"  (env GAR_THINKING)',
				"agent.idle_timeout = 300  (default)",
				"agent.loop_guard = true  (default)",
				`session.dir = "${w.home}/.local/share/gar/sessions"  (default)`,
				'tui.theme = "auto"  (default)',
				"tui.inspector = true  (default)",
				"tui.mouse = true  (default)",
				"tui.file_context = true  (default)",
				"tools.pass_env = []  (default)",
				"context.auto_compact = true  (default)",
				"context.reserve_tokens = 16384  (default)",
				"context.keep_recent_tokens = 20000  (default)",
				"context.max_tool_result_share = 0.25  (default)",
				"",
				"files read: ~/.config/gar/config.toml",
				"ANTHROPIC_API_KEY: set (sk-ant-…wxyz)",
				"OPENAI_API_KEY: not set",
			].join("\n"),
		);
		expect(text).not.toContain(INLINE.slice(8, -4));
		expect(text).not.toContain(ENV_KEY.slice(7, -4));
	});

	it("names the profile a value came from", () => {
		w.write(w.projectFile, '[profiles.local]\nprovider = "openai"\nmodel = "qwen"\nauto = 1\n');
		const text = formatConfig(load({}, { profile: "local" }));
		expect(text).toContain(`model = "qwen"  (profile local in ${w.projectFile})`);
		expect(text).toContain('profile = "local"  (flag --profile)');
		expect(text).toContain(`files read: ${w.projectFile}`);
	});

	it("has a JSON form with the same facts, masked", () => {
		w.write(w.userFile, `[providers.anthropic]\napi_key = "${INLINE}"\n[agent]\nauto_approve = ["read"]\n`);
		const json = formatConfigJson(load({ OPENAI_API_KEY: ENV_KEY }));
		expect(json).not.toContain(INLINE.slice(8, -4));
		expect(json).not.toContain(ENV_KEY.slice(7, -4));
		const parsed = JSON.parse(json);
		expect(parsed.values["providers.anthropic.api_key"]).toEqual({
			value: "sk-proj-…ABCD",
			source: { kind: "file", path: w.userFile, line: 2 },
		});
		expect(parsed.values["agent.auto_approve"].value).toEqual(["read"]);
		expect(parsed.values["agent.max_turns"]).toEqual({ value: 50, source: { kind: "default" } });
		expect(parsed.apiKeyVars).toEqual({ ANTHROPIC_API_KEY: null, OPENAI_API_KEY: "sk-ant-…wxyz" });
		expect(parsed.files).toEqual([w.userFile]);
		expect(parsed.warnings).toEqual([]);
	});
});

describe("resolveRun", () => {
	it("takes the key from the env variable and the provider's default model", () => {
		const env = { ANTHROPIC_API_KEY: ENV_KEY };
		expect(resolveRun(load(env).config, env, defaultModel)).toEqual({
			provider: "anthropic",
			model: "claude-default",
			apiKey: ENV_KEY,
			apiKeyEnv: "ANTHROPIC_API_KEY",
			idleTimeoutMs: 300_000,
		});
	});

	it("prefers the top-level model and base URL over the provider table", () => {
		w.write(
			w.userFile,
			'[providers.openai]\nmodel = "table-model"\nbase_url = "https://table.example/v1"\ncontext_window = 64000\n',
		);
		const env = { OPENAI_API_KEY: "k" };
		expect(resolveRun(load(env).config, env, defaultModel)).toMatchObject({
			provider: "openai",
			model: "table-model",
			baseUrl: "https://table.example/v1",
			contextWindow: 64000,
		});
		const flags = { model: "flag-model", baseUrl: "http://localhost:1/v1" };
		expect(resolveRun(load(env, flags).config, env, defaultModel)).toMatchObject({
			model: "flag-model",
			baseUrl: "http://localhost:1/v1",
		});
	});

	it("uses an inline key when the variable is unset", () => {
		w.write(w.userFile, `[providers.openai]\napi_key = "${INLINE}"\n`);
		const run = resolveRun(load().config, {}, defaultModel);
		expect(run).toMatchObject({ provider: "openai", apiKey: INLINE, model: "gpt-default" });
	});

	it("needs no key for an OpenAI-compatible local server", () => {
		w.write(
			w.userFile,
			'[profiles.local]\nprovider = "openai"\nbase_url = "http://localhost:11434/v1"\nmodel = "qwen"\n',
		);
		const run = resolveRun(load({}, { profile: "local" }).config, {}, defaultModel);
		expect(run).toEqual({
			provider: "openai",
			model: "qwen",
			baseUrl: "http://localhost:11434/v1",
			apiKeyEnv: "OPENAI_API_KEY",
			idleTimeoutMs: 300_000,
		});
	});

	it("names the variable to set when the key is missing", () => {
		const missing = () => resolveRun(load().config, {}, defaultModel);
		expect(missing).toThrow(ConfigError);
		expect(missing).toThrow(
			"no API key for anthropic: set ANTHROPIC_API_KEY (or api_key_env in [providers.anthropic]), or pick another provider with --provider",
		);
		w.write(w.userFile, '[providers.openai]\napi_key_env = "MY_KEY"\n');
		expect(() => resolveRun(load({}, { provider: "openai" }).config, {}, defaultModel)).toThrow(
			"no API key for openai: set MY_KEY (or api_key_env in [providers.openai]), or set base_url for a local OpenAI-compatible server, or pick another provider with --provider",
		);
	});

	it("sends a profile's key settings to the profile's provider", () => {
		w.write(
			w.userFile,
			'[profiles.groq]\nprovider = "openai"\nbase_url = "https://api.groq.com/openai/v1"\napi_key_env = "GROQ_API_KEY"\nmodel = "llama"\n',
		);
		const env = { GROQ_API_KEY: "gsk", OPENAI_API_KEY: "not-this" };
		const result = load(env, { profile: "groq" });
		expect(result.sources.get("providers.openai.api_key_env")).toEqual({
			kind: "profile",
			name: "groq",
			path: w.userFile,
		});
		expect(resolveRun(result.config, env, defaultModel)).toMatchObject({ apiKey: "gsk", apiKeyEnv: "GROQ_API_KEY" });
	});
});

describe("gar config", () => {
	const run = (env: NodeJS.ProcessEnv, json = false) => {
		let out = "";
		configCommand(load(env), { json }, (t) => (out += t));
		return out;
	};

	it("names the endpoint in use and where it comes from, after the model in use", () => {
		expect(run({}).split("\n").slice(0, 2)).toEqual([
			`model in use: ${modelDefault("anthropic")}  (the default for provider anthropic)`,
			"endpoint in use: https://api.anthropic.com  (the default for provider anthropic)",
		]);
		w.write(w.userFile, 'base_url = "https://user:secret@proxy.example/v1"\n');
		expect(run({ OPENAI_API_KEY: "k" }).split("\n")[1]).toBe(
			"endpoint in use: https://proxy.example/v1  (base_url, ~/.config/gar/config.toml:1)",
		);
		expect(run({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://localhost:8080/v1" }).split("\n")[1]).toBe(
			"endpoint in use: http://localhost:8080/v1  (providers.openai.base_url, env OPENAI_BASE_URL)",
		);
	});

	it("gives the endpoint in use in --json as endpointInUse, like modelInUse", () => {
		expect(JSON.parse(run({ OPENAI_API_KEY: "k" }, true)).endpointInUse).toEqual({
			url: "https://api.openai.com/v1",
			key: null,
			source: { kind: "provider_default" },
		});
		const env = { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://localhost:8080/v1" };
		expect(JSON.parse(run(env, true)).endpointInUse).toEqual({
			url: "http://localhost:8080/v1",
			key: "providers.openai.base_url",
			source: { kind: "env", name: "OPENAI_BASE_URL" },
		});
	});
});
