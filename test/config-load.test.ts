import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, configPaths, findProjectConfig, loadConfig, resolveRun } from "../src/config/index.js";
import { ENV_KEYS } from "../src/config/layers.js";
import { trustFile, writeTrusted } from "../src/config/trust-store.js";
import { makeWorld, type World } from "./fixtures/config/world.js";

let w: World;
beforeEach(() => {
	w = makeWorld();
});
afterEach(() => w.cleanup());

const load = (env: NodeJS.ProcessEnv = {}, flags = {}, cwd = w.project) =>
	loadConfig({ cwd, env, flags, home: w.home });

describe("defaults", () => {
	it("fills every key with no files, env or flags", () => {
		const { config, sources, files, warnings } = load();
		expect(config).toEqual({
			provider: "anthropic",
			model: undefined,
			baseUrl: undefined,
			profile: undefined,
			providers: { anthropic: { apiKeyEnv: "ANTHROPIC_API_KEY" }, openai: { apiKeyEnv: "OPENAI_API_KEY" } },
			agent: {
				maxTurns: 50,
				approve: false,
				autoApprove: [],
				bashTimeout: 120,
				thinking: "off",
				idleTimeout: 300,
				loopGuard: true,
			},
			session: { dir: join(w.home, ".local", "share", "gar", "sessions") },
			tui: { theme: "auto", inspector: true, mouse: true, fileContext: true },
			tools: { passEnv: [] },
			context: { autoCompact: true, reserveTokens: 16_384, keepRecentTokens: 20_000, maxToolResultShare: 0.25 },
		});
		expect(sources.get("agent.max_turns")).toEqual({ kind: "default" });
		expect(sources.has("model")).toBe(false);
		expect(files).toEqual([]);
		expect(warnings).toEqual([]);
	});

	it("follows XDG_CONFIG_HOME and XDG_DATA_HOME, ignoring relative values", () => {
		const xdg = join(w.root, "xdg");
		expect(configPaths(w.home, { XDG_CONFIG_HOME: xdg, XDG_DATA_HOME: join(xdg, "data") })).toEqual({
			configDir: join(xdg, "gar"),
			configFile: join(xdg, "gar", "config.toml"),
			dataDir: join(xdg, "data", "gar"),
			sessionsDir: join(xdg, "data", "gar", "sessions"),
		});
		expect(configPaths(w.home, { XDG_CONFIG_HOME: "rel" }).configFile).toBe(w.userFile);
		w.write(join(xdg, "gar", "config.toml"), "model = 'xdg'\n");
		expect(load({ XDG_CONFIG_HOME: xdg }).config.model).toBe("xdg");
	});
});

describe("precedence: flag > env > project > user > default", () => {
	const user = "[agent]\nmax_turns = 10\n";
	const project = "[agent]\n\nmax_turns = 20\n";

	it("user file beats the default", () => {
		w.write(w.userFile, user);
		const r = load();
		expect(r.config.agent.maxTurns).toBe(10);
		expect(r.sources.get("agent.max_turns")).toEqual({ kind: "file", path: w.userFile, line: 2 });
		expect(r.files).toEqual([w.userFile]);
	});

	it("project file beats the user file, key by key", () => {
		w.write(w.userFile, `${user}approve = true\n`);
		w.write(w.projectFile, project);
		const r = load();
		expect(r.config.agent).toMatchObject({ maxTurns: 20, approve: true });
		expect(r.sources.get("agent.max_turns")).toEqual({ kind: "file", path: w.projectFile, line: 3 });
		expect(r.sources.get("agent.approve")).toEqual({ kind: "file", path: w.userFile, line: 3 });
		expect(r.files).toEqual([w.userFile, w.projectFile]);
	});

	it("env beats the project file", () => {
		w.write(w.projectFile, project);
		const r = load({ GAR_MAX_TURNS: "30" });
		expect(r.config.agent.maxTurns).toBe(30);
		expect(r.sources.get("agent.max_turns")).toEqual({ kind: "env", name: "GAR_MAX_TURNS" });
	});

	it("flag beats env", () => {
		w.write(w.projectFile, project);
		const r = load({ GAR_MAX_TURNS: "30", GAR_MODEL: "env-model" }, { maxTurns: 40, model: "flag-model" });
		expect(r.config.agent.maxTurns).toBe(40);
		expect(r.config.model).toBe("flag-model");
		expect(r.sources.get("agent.max_turns")).toEqual({ kind: "flag" });
	});

	it("reads every GAR_ variable and the SDK base URLs", () => {
		const r = load({
			GAR_PROVIDER: "openai",
			GAR_MODEL: "m",
			GAR_BASE_URL: "http://localhost:8080/v1",
			GAR_THINKING: "high",
			GAR_SESSION_DIR: "~/s",
			ANTHROPIC_BASE_URL: "https://proxy.example/a",
			OPENAI_BASE_URL: "https://proxy.example/o",
			GAR_MODEL_UNUSED: "x",
		});
		expect(r.config).toMatchObject({
			provider: "openai",
			model: "m",
			baseUrl: "http://localhost:8080/v1",
			agent: { thinking: "high" },
			session: { dir: join(w.home, "s") },
			providers: { anthropic: { baseUrl: "https://proxy.example/a" }, openai: { baseUrl: "https://proxy.example/o" } },
		});
		expect(r.sources.get("providers.openai.base_url")).toEqual({ kind: "env", name: "OPENAI_BASE_URL" });
	});

	it("treats an empty variable as unset", () => {
		expect(load({ GAR_MODEL: "", GAR_MAX_TURNS: "" }).config.agent.maxTurns).toBe(50);
	});

	it("accepts numbers from flags as strings", () => {
		const r = load({}, { maxTurns: "7", bashTimeout: "2.5", approve: true, thinking: "low" });
		expect(r.config.agent).toMatchObject({ maxTurns: 7, bashTimeout: 2.5, approve: true, thinking: "low" });
	});
});

describe("project file lookup", () => {
	it("finds the nearest .gar/config.toml up to the git root", () => {
		w.write(w.projectFile, "model = 'root'\n");
		const sub = join(w.project, "src", "deep");
		mkdirSync(sub, { recursive: true });
		expect(findProjectConfig(sub)).toBe(w.projectFile);
		w.write(join(w.project, "src", ".gar", "config.toml"), "model = 'src'\n");
		expect(load({}, {}, sub).config.model).toBe("src");
	});

	it("stops at the git root", () => {
		w.write(join(w.root, ".gar", "config.toml"), "model = 'above'\n");
		expect(load().config.model).toBeUndefined();
	});

	it("looks only in cwd outside a repository", () => {
		const plain = join(w.root, "plain");
		w.write(join(plain, ".gar", "config.toml"), "model = 'here'\n");
		mkdirSync(join(plain, "sub"));
		expect(load({}, {}, plain).config.model).toBe("here");
		expect(load({}, {}, join(plain, "sub")).config.model).toBeUndefined();
	});
});

describe("profiles", () => {
	const profiles = `profile = "local"
model = "claude-top"

[profiles.local]
provider = "openai"
base_url = "http://localhost:11434/v1"
model = "qwen2.5-coder"
context_window = 32768
max_turns = 5

[profiles.fast]
model = "claude-haiku"
thinking = "low"
`;

	it("is selected by the top-level profile key and overrides the file's values", () => {
		w.write(w.userFile, profiles);
		const r = load();
		expect(r.config).toMatchObject({
			profile: "local",
			provider: "openai",
			model: "qwen2.5-coder",
			baseUrl: "http://localhost:11434/v1",
			agent: { maxTurns: 5 },
			providers: { openai: { contextWindow: 32768 } },
		});
		expect(r.sources.get("model")).toEqual({ kind: "profile", name: "local", path: w.userFile });
		expect(r.sources.get("providers.openai.context_window")).toEqual({
			kind: "profile",
			name: "local",
			path: w.userFile,
		});
		expect(r.sources.get("profile")).toEqual({ kind: "file", path: w.userFile, line: 1 });
	});

	it("is selected by GAR_PROFILE over the file, and by --profile over GAR_PROFILE", () => {
		w.write(w.userFile, profiles);
		expect(load({ GAR_PROFILE: "fast" }).config).toMatchObject({ profile: "fast", model: "claude-haiku" });
		const r = load({ GAR_PROFILE: "fast" }, { profile: "local" });
		expect(r.config.model).toBe("qwen2.5-coder");
		expect(r.sources.get("profile")).toEqual({ kind: "flag" });
	});

	it("names every profile's model, with its provider, for /model completion", () => {
		w.write(w.userFile, profiles);
		expect(load().profileModels).toEqual([{ model: "qwen2.5-coder", provider: "openai" }, { model: "claude-haiku" }]);
	});

	it("yields to env and flags", () => {
		w.write(w.userFile, profiles);
		const r = load({ GAR_MODEL: "env-model" }, { maxTurns: 9 });
		expect(r.config.model).toBe("env-model");
		expect(r.config.agent.maxTurns).toBe(9);
	});

	it("merges a profile defined in both files, the project file winning", () => {
		w.write(w.userFile, profiles);
		w.write(w.projectFile, "[profiles.local]\nmodel = 'project-model'\n");
		const r = load();
		expect(r.config.model).toBe("project-model");
		expect(r.config.baseUrl).toBe("http://localhost:11434/v1");
	});

	it("rejects an unknown profile, listing the defined ones", () => {
		w.write(w.userFile, profiles);
		expect(() => load({}, { profile: "nope" })).toThrow(
			'unknown profile "nope" (from --profile); defined profiles: "local", "fast"; add [profiles.nope] to a config file',
		);
		expect(() => load({ GAR_PROFILE: "x" }, {}, w.root)).toThrow(/from GAR_PROFILE/);
	});

	it("says so when no profile is defined", () => {
		expect(() => load({}, { profile: "work" })).toThrow(ConfigError);
		expect(() => load({}, { profile: "work" })).toThrow(/no profiles are defined/);
	});
});

describe("provider choice", () => {
	it("picks the provider whose key is set, anthropic first", () => {
		expect(load({ OPENAI_API_KEY: "k" }).config.provider).toBe("openai");
		expect(load({ OPENAI_API_KEY: "k" }).sources.get("provider")).toEqual({ kind: "env", name: "OPENAI_API_KEY" });
		expect(load({ OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" }).config.provider).toBe("anthropic");
	});

	it("follows a renamed key variable", () => {
		w.write(w.userFile, "[providers.openai]\napi_key_env = 'MY_OPENAI'\n");
		expect(load({ MY_OPENAI: "k" }).config.provider).toBe("openai");
		expect(load({ OPENAI_API_KEY: "k" }).config.provider).toBe("anthropic");
	});

	it("picks openai when only a base URL is configured", () => {
		const r = load({ GAR_BASE_URL: "http://localhost:11434/v1" });
		expect(r.config.provider).toBe("openai");
		expect(r.sources.get("provider")).toEqual({ kind: "env", name: "GAR_BASE_URL" });
		expect(load({ OPENAI_BASE_URL: "http://localhost:1234/v1" }).config.provider).toBe("openai");
	});

	it("lets an explicit provider win over inference", () => {
		expect(load({ OPENAI_API_KEY: "k" }, { provider: "anthropic" }).config.provider).toBe("anthropic");
		w.write(w.userFile, "provider = 'openai'\n");
		expect(load({ ANTHROPIC_API_KEY: "k" }).config.provider).toBe("openai");
	});

	it("defaults to anthropic with nothing set", () => {
		expect(load().sources.get("provider")).toEqual({ kind: "default" });
	});
});

describe("session dir", () => {
	it("expands ~ and resolves a relative path against the file's directory", () => {
		w.write(w.userFile, "[session]\ndir = '~/gar-sessions'\n");
		expect(load().config.session.dir).toBe(join(w.home, "gar-sessions"));
		w.write(w.projectFile, "[session]\ndir = 'sessions'\n");
		expect(load().config.session.dir).toBe(join(w.project, ".gar", "sessions"));
	});

	it("resolves env and flag paths against cwd", () => {
		expect(load({ GAR_SESSION_DIR: "rel" }).config.session.dir).toBe(join(w.project, "rel"));
		expect(load({}, { sessionDir: "~" }).config.session.dir).toBe(w.home);
	});

	it("defaults under XDG_DATA_HOME", () => {
		const data = join(w.root, "data");
		expect(load({ XDG_DATA_HOME: data }).config.session.dir).toBe(join(data, "gar", "sessions"));
	});
});

describe("precedence between the top-level base_url and a provider table's", () => {
	const trustProject = () =>
		writeTrusted(trustFile(join(w.home, ".config", "gar")), [{ path: w.project, trustedAt: "t" }]);
	const endpoint = (env: NodeJS.ProcessEnv, flags = {}) => resolveRun(load(env, flags).config, env, () => "m").baseUrl;

	it("the environment beats a project file, as flags > environment > project says", () => {
		trustProject();
		w.write(w.projectFile, 'base_url = "https://project.example/v1"\n');
		const key = { ANTHROPIC_API_KEY: "k" };
		expect(endpoint({ ...key, ANTHROPIC_BASE_URL: "https://env.example" })).toBe("https://env.example");
		expect(endpoint({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://env.example/v1" })).toBe("https://env.example/v1");
		expect(endpoint(key)).toBe("https://project.example/v1");
		expect(endpoint({ ...key, ANTHROPIC_BASE_URL: "https://env.example" }, { baseUrl: "http://flag.example" })).toBe(
			"http://flag.example",
		);
	});

	it("the environment beats a profile, and a project file beats the user file", () => {
		w.write(w.userFile, 'profile = "p"\n[profiles.p]\nbase_url = "https://profile.example"\n');
		expect(endpoint({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://env.example" })).toBe("https://env.example");
		w.write(w.userFile, 'base_url = "https://user.example"\n');
		trustProject();
		w.write(w.projectFile, '[providers.anthropic]\nbase_url = "https://project.example"\n');
		expect(endpoint({ ANTHROPIC_API_KEY: "k" })).toBe("https://project.example");
	});

	it("within one layer the top-level base_url wins", () => {
		w.write(
			w.userFile,
			'base_url = "https://top.example"\n[providers.anthropic]\nbase_url = "https://table.example"\n',
		);
		expect(endpoint({ ANTHROPIC_API_KEY: "k" })).toBe("https://top.example");
		const env = { ANTHROPIC_API_KEY: "k", GAR_BASE_URL: "https://top.env", ANTHROPIC_BASE_URL: "https://table.env" };
		expect(endpoint(env)).toBe("https://top.env");
	});

	it("every variable beats the project file's value of its key", () => {
		trustProject();
		const project: Record<string, string> = {
			provider: 'provider = "anthropic"',
			model: 'model = "project-model"',
			base_url: 'base_url = "https://project.example"',
			profile: 'profile = "a"',
			"agent.max_turns": "[agent]\nmax_turns = 3",
			"agent.thinking": '[agent]\nthinking = "low"',
			"session.dir": '[session]\ndir = "/project/sessions"',
			"agent.idle_timeout": "[agent]\nidle_timeout = 7",
			"providers.anthropic.base_url": '[providers.anthropic]\nbase_url = "https://project.example/a"',
			"providers.openai.base_url": '[providers.openai]\nbase_url = "https://project.example/o"',
		};
		const fromEnv: Record<string, [string, unknown]> = {
			provider: ["openai", "openai"],
			model: ["env-model", "env-model"],
			base_url: ["https://env.example", "https://env.example"],
			profile: ["b", "b"],
			"agent.max_turns": ["9", 9],
			"agent.thinking": ["high", "high"],
			"session.dir": ["/env/sessions", "/env/sessions"],
			"agent.idle_timeout": ["11", 11],
			"providers.anthropic.base_url": ["https://env.example/a", "https://env.example/a"],
			"providers.openai.base_url": ["https://env.example/o", "https://env.example/o"],
		};
		const profiles = '\n[profiles.a]\nthinking = "low"\n[profiles.b]\nthinking = "medium"\n';
		for (const [name, key] of ENV_KEYS) {
			w.write(w.projectFile, `${project[key]}${profiles}`);
			const [raw, value] = fromEnv[key] ?? [];
			const provider = key.includes("openai") ? "openai" : "anthropic";
			const env = { [name]: String(raw), ...(provider === "openai" ? { OPENAI_API_KEY: "k" } : {}) };
			const r = load(env);
			expect(r.sources.get(key), name).toEqual({ kind: "env", name });
			if (key.endsWith("base_url")) {
				expect(resolveRun(r.config, { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" }, () => "m").baseUrl, name).toBe(
					value,
				);
			}
		}
	});
});
