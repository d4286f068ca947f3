import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig, resolveRun } from "../src/config/index.js";
import { configProblem, makeWorld, type World } from "./fixtures/config/world.js";

let w: World;
beforeEach(() => {
	w = makeWorld();
});
afterEach(() => w.cleanup());

const load = (env: NodeJS.ProcessEnv = {}, flags = {}) => loadConfig({ cwd: w.project, env, flags, home: w.home });
const run = (env: NodeJS.ProcessEnv = {}, flags = {}) =>
	resolveRun(load({ OPENAI_API_KEY: "k", ...env }, flags).config, { OPENAI_API_KEY: "k" }, () => "m");
const problem = (env: NodeJS.ProcessEnv = {}, flags = {}) => configProblem(() => load(env, flags));

describe("idle_timeout", () => {
	it("defaults to 300 s", () => {
		expect(run().idleTimeoutMs).toBe(300_000);
	});

	it("comes from [agent], and a provider table beats it", () => {
		w.write(w.userFile, "[agent]\nidle_timeout = 90\n");
		expect(run().idleTimeoutMs).toBe(90_000);
		w.write(w.userFile, "[agent]\nidle_timeout = 90\n[providers.openai]\nidle_timeout = 1.5\n");
		expect(run().idleTimeoutMs).toBe(1_500);
	});

	it("comes from the profile for the profile's provider", () => {
		w.write(w.userFile, '[agent]\nidle_timeout = 90\n[profiles.slow]\nprovider = "openai"\nidle_timeout = 900\n');
		const r = load({ OPENAI_API_KEY: "k" }, { profile: "slow" });
		expect(r.sources.get("providers.openai.idle_timeout")).toEqual({ kind: "profile", name: "slow", path: w.userFile });
		expect(resolveRun(r.config, { OPENAI_API_KEY: "k" }, () => "m").idleTimeoutMs).toBe(900_000);
	});

	it("from GAR_IDLE_TIMEOUT or --idle-timeout wins over every file value", () => {
		w.write(w.userFile, '[providers.openai]\nidle_timeout = 5\n[profiles.p]\nprovider = "openai"\nidle_timeout = 6\n');
		expect(run({ GAR_IDLE_TIMEOUT: "20" }).idleTimeoutMs).toBe(20_000);
		expect(run({ GAR_IDLE_TIMEOUT: "20" }, { idleTimeout: "30", profile: "p" }).idleTimeoutMs).toBe(30_000);
		const r = load({ GAR_IDLE_TIMEOUT: "20" });
		expect(r.sources.get("agent.idle_timeout")).toEqual({ kind: "env", name: "GAR_IDLE_TIMEOUT" });
		expect(r.sources.has("providers.openai.idle_timeout")).toBe(false);
	});

	it("must be a number of seconds > 0", () => {
		w.write(w.userFile, "[agent]\nidle_timeout = 0\n");
		expect(problem()).toBe("~/.config/gar/config.toml:2: agent.idle_timeout: expected a number of seconds > 0, got 0");
		w.write(w.userFile, "");
		expect(problem({ GAR_IDLE_TIMEOUT: "soon" })).toBe(
			'environment variable GAR_IDLE_TIMEOUT: expected a number of seconds > 0, got "soon"',
		);
		expect(problem({}, { idleTimeout: "-1" })).toBe('--idle-timeout: expected a number of seconds > 0, got "-1"');
	});

	it("in the wrong table gets a hint", () => {
		w.write(w.userFile, "idle_timeout = 5\n");
		expect(load().warnings).toEqual([
			'unknown key "idle_timeout" at top level (~/.config/gar/config.toml:1); "idle_timeout" belongs in [agent]',
		]);
	});
});

describe("loop_guard", () => {
	it("is on by default and can be turned off in [agent]", () => {
		expect(load().config.agent.loopGuard).toBe(true);
		w.write(w.userFile, "[agent]\nloop_guard = false\n");
		expect(load().config.agent.loopGuard).toBe(false);
		w.write(w.userFile, '[agent]\nloop_guard = "no"\n');
		expect(problem()).toBe('~/.config/gar/config.toml:2: agent.loop_guard: expected true or false, got "no"');
	});
});

describe("think_tags", () => {
	it("is unset by default and set by a provider table or a profile", () => {
		expect(run().thinkTags).toBeUndefined();
		w.write(w.userFile, "[providers.openai]\nthink_tags = true\n");
		expect(run().thinkTags).toBe(true);
		w.write(w.userFile, '[profiles.q]\nprovider = "openai"\nthink_tags = false\n');
		expect(run({}, { profile: "q" }).thinkTags).toBe(false);
	});

	it("is not an [agent] key", () => {
		w.write(w.userFile, "[agent]\nthink_tags = true\n");
		expect(load().warnings[0]).toBe(
			'unknown key "think_tags" in [agent] (~/.config/gar/config.toml:2); "think_tags" belongs in [providers.<name>]',
		);
	});
});

describe("[tools] pass_env", () => {
	it("is a list of variable names or globs", () => {
		expect(load().config.tools.passEnv).toEqual([]);
		w.write(w.userFile, '[tools]\npass_env = ["GITHUB_TOKEN", "AWS_*"]\n');
		expect(load().config.tools.passEnv).toEqual(["GITHUB_TOKEN", "AWS_*"]);
	});

	it("rejects what is not a variable name", () => {
		w.write(w.userFile, '[tools]\npass_env = ["OK", "no spaces"]\n');
		expect(problem()).toBe(
			'~/.config/gar/config.toml:2: tools.pass_env[1]: expected an environment variable name (letters, digits, _ and *), got "no spaces"',
		);
		w.write(w.userFile, '[tools]\npass_env = "GITHUB_TOKEN"\n');
		expect(problem()).toContain("tools.pass_env: expected an array of environment variable names");
	});

	it("suggests itself for a typo", () => {
		w.write(w.userFile, '[tools]\npassenv = ["X"]\n');
		expect(load().warnings[0]).toContain('did you mean "pass_env"?');
	});
});

describe("secretVars", () => {
	it("names the built-in key variables and every applied api_key_env", () => {
		w.write(
			w.userFile,
			'[providers.openai]\napi_key_env = "MY_OPENAI"\n[profiles.g]\nprovider = "openai"\napi_key_env = "GROQ_API_KEY"\n',
		);
		expect(load().secretVars).toEqual([
			"ANTHROPIC_API_KEY",
			"ANTHROPIC_AUTH_TOKEN",
			"OPENAI_API_KEY",
			"MY_OPENAI",
			"GROQ_API_KEY",
		]);
	});
});
