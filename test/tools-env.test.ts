import { describe, expect, it } from "vitest";
import { looksSecret, toolEnv, userNodeEnv } from "../src/tools/tool-env.js";

const base = { secretVars: ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY"], passEnv: [] };

describe("toolEnv", () => {
	it("withholds the variables gar reads keys from, keeping the user's others", () => {
		const env = { PATH: "/bin", HOME: "/h", ANTHROPIC_API_KEY: "sk-ant-x", MY_LLM: "k", LANG: "C.UTF-8" };
		expect(toolEnv(env, { ...base, secretVars: [...base.secretVars, "MY_LLM"], userNodeEnv: undefined })).toEqual({
			PATH: "/bin",
			HOME: "/h",
			LANG: "C.UTF-8",
		});
	});

	it("withholds secret-looking names and URLs with a password", () => {
		const env = {
			GITHUB_TOKEN: "ghp_x",
			AWS_SECRET_ACCESS_KEY: "a",
			AWS_SESSION_TOKEN: "b",
			PGPASSWORD: "c",
			NPM_CONFIG__AUTHTOKEN: "d",
			DB_PASS: "e",
			DATABASE_URL: "postgres://me:pw@db/app",
			TOKENIZERS_PARALLELISM: "false",
			KEYTIMEOUT: "1",
			SSH_AUTH_SOCK: "/tmp/agent",
			PWD: "/work",
			HTTP_PROXY: "http://proxy:3128",
		};
		expect(toolEnv(env, { ...base, userNodeEnv: undefined })).toEqual({
			TOKENIZERS_PARALLELISM: "false",
			KEYTIMEOUT: "1",
			SSH_AUTH_SOCK: "/tmp/agent",
			PWD: "/work",
			HTTP_PROXY: "http://proxy:3128",
		});
	});

	it("passes variables named in pass_env, globs included, even gar's own key", () => {
		const env = { GITHUB_TOKEN: "g", AWS_SECRET_ACCESS_KEY: "a", AWS_SESSION_TOKEN: "b", OPENAI_API_KEY: "o" };
		expect(
			toolEnv(env, { ...base, passEnv: ["GITHUB_TOKEN", "AWS_*", "OPENAI_API_KEY"], userNodeEnv: undefined }),
		).toEqual(env);
		expect(toolEnv(env, { ...base, passEnv: ["*"], userNodeEnv: undefined })).toEqual(env);
		expect(toolEnv(env, { ...base, passEnv: ["AWS"], userNodeEnv: undefined })).toEqual({});
	});

	it("removes the NODE_ENV gar set and restores the user's own", () => {
		const env = { NODE_ENV: "production", PATH: "/bin" };
		expect(toolEnv(env, { ...base, userNodeEnv: undefined })).toEqual({ PATH: "/bin" });
		expect(toolEnv(env, { ...base, userNodeEnv: "development" })).toEqual({ PATH: "/bin", NODE_ENV: "development" });
	});

	it("does not change its input", () => {
		const env = { OPENAI_API_KEY: "o", NODE_ENV: "production" };
		toolEnv(env, { ...base, userNodeEnv: undefined });
		expect(env).toEqual({ OPENAI_API_KEY: "o", NODE_ENV: "production" });
	});
});

describe("looksSecret", () => {
	it.each([
		["OPENAI_API_KEY", true],
		["HF_TOKEN", true],
		["CLIENT_SECRET", true],
		["GH_PAT_TOKENS", true],
		["api_key", true],
		["EDITOR", false],
		["LESSCHARSET", false],
		["GIT_ASKPASS", false],
	])("%s → %s", (name, secret) => {
		expect(looksSecret(name, "x")).toBe(secret);
	});
});

describe("userNodeEnv", () => {
	const mark = Symbol.for("gar.userNodeEnv");

	it("is the value bin/gar.cjs recorded, even when that was unset", () => {
		expect(userNodeEnv({ NODE_ENV: "production" }, { [mark]: { value: "test" } })).toBe("test");
		expect(userNodeEnv({ NODE_ENV: "production" }, { [mark]: { value: undefined } })).toBeUndefined();
	});

	it("is env's NODE_ENV when gar runs from source", () => {
		expect(userNodeEnv({ NODE_ENV: "development" }, {})).toBe("development");
	});
});
