import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dirsFromRoot, loadContextFiles, MAX_CONTEXT_FILE_BYTES } from "../src/prompt/context-files.js";
import { buildSystemPrompt, gitBranch, textOrFile } from "../src/prompt/system-prompt.js";

function tree() {
	const top = mkdtempSync(join(tmpdir(), "gar-prompt-"));
	const repo = join(top, "repo");
	const sub = join(repo, "pkg", "app");
	mkdirSync(join(repo, ".git"), { recursive: true });
	mkdirSync(sub, { recursive: true });
	writeFileSync(join(repo, ".git", "HEAD"), "ref: refs/heads/feature/x\n");
	const config = join(top, "config");
	mkdirSync(config);
	return { top, repo, sub, config };
}

const ALL_TOOLS = ["read", "write", "edit", "bash"];

describe("system prompt", () => {
	it("stays under 1,000 tokens (chars/4) without context files", () => {
		const { sub } = tree();
		const prompt = buildSystemPrompt({ cwd: sub, tools: ALL_TOOLS, date: new Date(), contextFiles: [] }).text;
		expect(prompt.length / 4).toBeLessThan(1000);
		for (const tool of ALL_TOOLS) expect(prompt).toContain(`- ${tool}:`);
		expect(prompt).toContain(`Working directory: ${sub}`);
		expect(prompt).toContain("Git branch: feature/x");
	});

	it("lists only the allowed tools", () => {
		const prompt = buildSystemPrompt({ cwd: "/", tools: ["read"], date: new Date(0), contextFiles: [] }).text;
		expect(prompt).toContain("- read:");
		expect(prompt).not.toContain("- bash:");
		expect(prompt).toContain("Date: 1970-01-01");
	});

	it("replaces and appends", () => {
		const prompt = buildSystemPrompt({
			cwd: "/",
			tools: ALL_TOOLS,
			date: new Date(),
			contextFiles: [],
			replace: "You are a pirate.",
			append: "Answer in French.",
		}).text;
		expect(prompt.startsWith("You are a pirate.")).toBe(true);
		expect(prompt).not.toContain("Guidelines");
		expect(prompt.endsWith("Answer in French.")).toBe(true);
	});

	it("reads flag values that name a file", () => {
		const { top } = tree();
		writeFileSync(join(top, "p.md"), "from a file");
		expect(textOrFile("p.md", top)).toBe("from a file");
		expect(textOrFile("just text", top)).toBe("just text");
	});
});

describe("context files", () => {
	it("loads the user file, then AGENTS.md (else CLAUDE.md) from the repo root down to the cwd", () => {
		const { top, repo, sub, config } = tree();
		writeFileSync(join(top, "AGENTS.md"), "outside the repo: never loaded");
		writeFileSync(join(config, "AGENTS.md"), "user rules");
		writeFileSync(join(repo, "AGENTS.md"), "root rules");
		writeFileSync(join(repo, "pkg", "CLAUDE.md"), "pkg claude rules");
		writeFileSync(join(sub, "AGENTS.md"), "app rules");
		writeFileSync(join(sub, "CLAUDE.md"), "shadowed by AGENTS.md");
		const files = loadContextFiles(sub, config);
		expect(files.map((f) => f.content)).toEqual(["user rules", "root rules", "pkg claude rules", "app rules"]);
		const { text: prompt, parts } = buildSystemPrompt({
			cwd: sub,
			tools: ALL_TOOLS,
			date: new Date(),
			contextFiles: files,
		});
		expect(prompt.indexOf("root rules")).toBeLessThan(prompt.indexOf("app rules"));
		expect(parts.map((p) => p.source)).toEqual([
			"base",
			"environment",
			"context_file",
			"context_file",
			"context_file",
			"context_file",
		]);
		expect(parts[2]?.path).toBe(join(config, "AGENTS.md"));
		expect(parts.map((p) => p.text).join("\n\n")).toBe(prompt);
	});

	it("uses only the cwd outside a repository", () => {
		const top = mkdtempSync(join(tmpdir(), "gar-norepo-"));
		expect(dirsFromRoot(top).at(-1)).toBe(top);
		expect(gitBranch(top)).toBeNull();
	});

	it("cuts a huge context file", () => {
		const { repo, config } = tree();
		writeFileSync(join(repo, "AGENTS.md"), "x".repeat(MAX_CONTEXT_FILE_BYTES + 10));
		const [file] = loadContextFiles(repo, config);
		expect(file?.truncated).toBe(true);
		expect(file?.content.length).toBe(MAX_CONTEXT_FILE_BYTES);
	});
});
