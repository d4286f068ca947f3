import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ScriptedTurn } from "../llm/scripted.js";

/** The demo's tiny project: a function with an off-by-one and a test that catches it. */
const FILES: Record<string, string> = {
	"README.md": "# stats\n\nTiny helpers for lists of numbers. Run the tests with `node test.js`.\n",
	"stats.js": [
		"// Tiny helpers for lists of numbers.",
		"export function sum(values) {",
		"\tlet total = 0;",
		"\tfor (let i = 1; i < values.length; i++) total += values[i];",
		"\treturn total;",
		"}",
		"",
		"export function mean(values) {",
		"\treturn values.length === 0 ? 0 : sum(values) / values.length;",
		"}",
		"",
	].join("\n"),
	"test.js": [
		'import assert from "node:assert/strict";',
		'import { mean, sum } from "./stats.js";',
		"",
		"assert.equal(sum([1, 2, 3]), 6);",
		"assert.equal(mean([2, 4]), 3);",
		'console.log("all tests passed");',
		"",
	].join("\n"),
	"package.json": '{ "name": "stats", "type": "module", "private": true }\n',
};

/**
 * Writes the demo project into a new temporary folder and returns its path. The folder is removed when the process
 * exits, however it ends (quit, a signal, a crash): each demo would otherwise leave one behind.
 */
export function createDemoProject(): string {
	const dir = mkdtempSync(join(tmpdir(), "gar-demo-"));
	process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
	demoProjectIn(dir);
	return dir;
}

/** Writes the demo project's files into `dir` (made if missing); scripts/make-demo-session.ts runs the demo there. */
export function demoProjectIn(dir: string): void {
	mkdirSync(dir, { recursive: true });
	for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
}

/** The task the demo types for the person. */
export const DEMO_PROMPT = "The tests fail. Find the bug and fix it.";

/** Words as deltas, so the answer streams at a reading pace. */
function words(text: string): string[] {
	return text.split(/(?<= )/);
}

/** The scripted model of the demo: read, a failing test run, an edit with its diff, the passing run, an answer. */
export function demoScript(delayMs = 90): ScriptedTurn[] {
	const usage = (input: number, output: number) => ({ input, output, cacheRead: Math.floor(input * 0.6) });
	return [
		{
			text: words("Let me run the tests first to see what fails."),
			toolCalls: [{ id: "demo_1", name: "bash", args: { command: "node test.js" } }],
			usage: usage(2400, 40),
			delayMs,
		},
		{
			text: words("`sum` returns the wrong total. Let me read the code."),
			toolCalls: [{ id: "demo_2", name: "read", args: { path: "stats.js" } }],
			usage: usage(2900, 35),
			delayMs,
		},
		{
			thinking: words("The loop starts at index 1, so the first value is never added: an off-by-one."),
			text: words("The loop in `sum` starts at 1 and skips the first value. Fixing it:"),
			toolCalls: [
				{
					id: "demo_3",
					name: "edit",
					args: {
						path: "stats.js",
						edits: [
							{
								oldText: "for (let i = 1; i < values.length; i++)",
								newText: "for (let i = 0; i < values.length; i++)",
							},
						],
					},
				},
			],
			usage: usage(3400, 90),
			delayMs,
		},
		{
			text: words("Running the tests again."),
			toolCalls: [{ id: "demo_4", name: "bash", args: { command: "node test.js" } }],
			usage: usage(3700, 25),
			delayMs,
		},
		{
			text: words(
				"Fixed. **The bug:** `sum` started its loop at index `1`, so it never added the first value " +
					"(`sum([1, 2, 3])` gave `5`).\n\n- `stats.js`: the loop now starts at `0`.\n- `node test.js`: all tests pass.\n",
			),
			usage: usage(3900, 80),
			delayMs,
		},
	];
}
