// Permission rules in the config: read with their lines, checked (an empty prefix is refused), dropped from an
// untrusted project (allow only), listed by `gar config`, and saved by the dialog's key without touching anything
// the person wrote.
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { trustCommand } from "../src/commands/trust.js";
import { formatConfig, formatConfigJson, loadConfig } from "../src/config/index.js";
import { saveRule } from "../src/config/rule-writer.js";
import { configProblem, makeWorld, type World } from "./fixtures/config/world.js";

let w: World;
beforeEach(() => {
	w = makeWorld();
});
afterEach(() => w.cleanup());

const load = () => loadConfig({ cwd: w.project, env: {}, home: w.home });
const brief = (r: ReturnType<typeof load>) =>
	r.rules.map(({ list, tool, prefix, line }) => ({ list, tool, prefix, line }));

describe("rules in the config", () => {
	it("are read from [[permissions.allow]] and [[permissions.deny]] with their lines", () => {
		w.write(
			w.userFile,
			[
				"# my rules",
				"[[permissions.allow]]",
				'tool = "bash"',
				'prefix = "npm test"',
				"",
				"[[permissions.deny]]",
				'tool = "bash"',
				'prefix = "git push"',
				"",
				"[[permissions.allow]]",
				'tool = "edit"',
			].join("\n"),
		);
		expect(brief(load())).toEqual([
			{ list: "allow", tool: "bash", prefix: "npm test", line: 2 },
			{ list: "allow", tool: "edit", prefix: undefined, line: 10 },
			{ list: "deny", tool: "bash", prefix: "git push", line: 6 },
		]);
		expect(load().rules[0]?.words).toEqual(["npm", "test"]);
	});

	it("refuse an empty prefix, a prefix on another tool, a compound prefix and a misspelt key", () => {
		w.write(w.userFile, '[[permissions.allow]]\ntool = "bash"\nprefix = ""\n');
		expect(configProblem(load)).toBe(
			`~/.config/gar/config.toml:1: permissions.allow: an empty prefix would allow every command: write tool = "bash" without a prefix to allow every bash command`,
		);
		w.write(w.userFile, '[[permissions.deny]]\ntool = "write"\nprefix = "src/"\n');
		expect(configProblem(load)).toContain(
			':1: permissions.deny: a prefix applies to bash commands only (tool = "bash")',
		);
		w.write(w.userFile, '[[permissions.allow]]\ntool = "bash"\nprefix = "npm test && rm"\n');
		expect(configProblem(load)).toContain("a prefix is the first words of one command");
		// A misspelt prefix would leave a rule allowing every bash command: an error, never a warning.
		w.write(w.userFile, '[[permissions.allow]]\ntool = "bash"\nprefx = "npm test"\n');
		expect(configProblem(load)).toContain('unknown key "prefx" in [permissions.allow[0]]');
		expect(configProblem(load)).toContain('did you mean "prefix"?');
		w.write(w.userFile, '[[permision.allow]]\ntool = "bash"\n');
		expect(configProblem(load)).toContain('unknown key "permision" at top level');
		w.write(w.userFile, '[[permissions.allow]]\ntool = "rm"\n');
		expect(configProblem(load)).toContain('permissions.allow[0].tool: expected one of "read", "write", "edit", "bash"');
	});

	it("from an untrusted project: allow rules are ignored and named, deny rules apply; trusted, both apply", () => {
		w.write(
			w.projectFile,
			'[[permissions.allow]]\ntool = "bash"\n\n[[permissions.deny]]\ntool = "bash"\nprefix = "rm"\n',
		);
		const untrusted = load();
		expect(brief(untrusted)).toEqual([{ list: "deny", tool: "bash", prefix: "rm", line: 4 }]);
		expect(untrusted.ignored).toEqual([
			{ key: "permissions.allow", value: { tool: "bash" }, source: { kind: "file", path: w.projectFile, line: 1 } },
		]);
		expect(untrusted.warnings[0]).toContain(
			`ignored permissions.allow from ${w.projectFile}: the project is not trusted`,
		);
		expect(formatConfig(untrusted)).toContain(
			`permissions.allow = { tool = "bash" }  (ignored, project not trusted: ${w.projectFile}:1)`,
		);
		trustCommand({ configDir: join(w.home, ".config", "gar"), cwd: w.project, write: () => {} }, undefined, {});
		expect(brief(load()).map((r) => r.list)).toEqual(["allow", "deny"]);
	});

	it("are listed by gar config with where each is written, and in its JSON", () => {
		w.write(
			w.userFile,
			'[[permissions.allow]]\ntool = "bash"\nprefix = "npm test"\n\n[[permissions.allow]]\ntool = "bash"\n',
		);
		const text = formatConfig(load());
		expect(text).toContain(`permissions.allow = { tool = "bash", prefix = "npm test" }  (~/.config/gar/config.toml:1)`);
		expect(text).toContain(`permissions.allow = { tool = "bash" }  (~/.config/gar/config.toml:5; every bash call)`);
		const json = JSON.parse(formatConfigJson(load()));
		expect(json.permissions.allow[0]).toEqual({
			tool: "bash",
			prefix: "npm test",
			source: { kind: "file", path: w.userFile, line: 1 },
		});
		expect(json.permissions.deny).toEqual([]);
	});
});

describe("saving a rule", () => {
	const mine = [
		"# gar settings — written by hand",
		"provider = 'openai'   # inline comment",
		"",
		"[agent]",
		"approve = true",
		"  # an indented comment",
		'auto_approve = [ "read" ]',
	].join("\n");

	it("appends a table and keeps every byte the person wrote; the rule loads back at the line it names", () => {
		w.write(w.userFile, mine, 0o640);
		const saved = saveRule(w.userFile, { list: "allow", tool: "bash", prefix: "npm test" }, w.home);
		const text = readFileSync(w.userFile, "utf8");
		expect(text.startsWith(mine)).toBe(true);
		expect(text.slice(mine.length)).toBe('\n\n[[permissions.allow]]\ntool = "bash"\nprefix = "npm test"\n');
		expect(saved).toEqual({ file: w.userFile, line: 9 });
		expect(brief(load())).toEqual([{ list: "allow", tool: "bash", prefix: "npm test", line: 9 }]);
		expect(statSync(w.userFile).mode & 0o777).toBe(0o640);
		// Nothing left beside it but the file itself.
		expect(readdirSync(dirname(w.userFile))).toEqual(["config.toml"]);
		// The same rule again is not added twice.
		expect(saveRule(w.userFile, { list: "allow", tool: "bash", prefix: "npm test" }, w.home)).toEqual(saved);
		expect(readFileSync(w.userFile, "utf8")).toBe(text);
	});

	it("keeps CRLF line ends, quotes a prefix as TOML, and makes a missing file (readable by its owner only)", () => {
		w.write(w.userFile, '[tui]\r\ntheme = "dark"\r\n');
		saveRule(w.userFile, { list: "allow", tool: "bash", prefix: 'grep "a\\b"' }, w.home);
		expect(readFileSync(w.userFile, "utf8")).toBe(
			'[tui]\r\ntheme = "dark"\r\n\r\n[[permissions.allow]]\r\ntool = "bash"\r\nprefix = "grep \\"a\\\\b\\""\r\n',
		);
		expect(load().rules[0]?.prefix).toBe('grep "a\\b"');
		const fresh = join(w.root, "fresh", "gar", "config.toml");
		expect(saveRule(fresh, { list: "allow", tool: "bash", prefix: "make" }, w.home)).toEqual({ file: fresh, line: 1 });
		expect(readFileSync(fresh, "utf8")).toBe('[[permissions.allow]]\ntool = "bash"\nprefix = "make"\n');
		expect(statSync(fresh).mode & 0o777).toBe(0o600);
	});

	it("never rewrites a file that does not parse, nor one whose rules are an inline array", () => {
		const broken = 'provider = "openai\n# unclosed string above\n';
		w.write(w.userFile, broken);
		expect(configProblem(() => saveRule(w.userFile, { list: "allow", tool: "bash", prefix: "ls" }, w.home))).toMatch(
			/config\.toml:1 does not parse \(.*\): fix it, and gar can save rules there/,
		);
		expect(readFileSync(w.userFile, "utf8")).toBe(broken);
		const inline = '[permissions]\nallow = [{ tool = "edit" }]\n';
		w.write(w.userFile, inline);
		expect(configProblem(() => saveRule(w.userFile, { list: "allow", tool: "bash", prefix: "ls" }, w.home))).toContain(
			'add it by hand:\n[[permissions.allow]]\ntool = "bash"\nprefix = "ls"',
		);
		expect(readFileSync(w.userFile, "utf8")).toBe(inline);
		expect(readdirSync(dirname(w.userFile))).toEqual(["config.toml"]);
	});

	it("writes through a symlinked config to its target, leaving the link", () => {
		const real = w.write(join(w.root, "dotfiles", "gar.toml"), "# dotfiles\n");
		mkdirSync(dirname(w.userFile), { recursive: true });
		symlinkSync(real, w.userFile);
		saveRule(w.userFile, { list: "allow", tool: "bash", prefix: "ls" }, w.home);
		expect(readFileSync(real, "utf8")).toContain('prefix = "ls"');
		expect(readdirSync(dirname(w.userFile))).toEqual(["config.toml"]);
		expect(load().rules.map((r) => r.prefix)).toEqual(["ls"]);
	});
});
