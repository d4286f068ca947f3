import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { toolLine } from "../src/output/transcript.js";
import { failureLines } from "../src/view/failure-lines.js";
import type { ToolItem } from "../src/view/state.js";

/** A real command output (test/fixtures/output/README.md) as the bash tool returns it: output, then gar's trailer. */
const output = (name: string, exit = 1) =>
	`${readFileSync(new URL(`./fixtures/output/${name}.txt`, import.meta.url), "utf8").replace(/\n$/, "")}\n\n[Exit code ${exit}]`;

const shown = (text: string, max?: number) => failureLines(text, max).lines.map((l) => `${l.line}: ${l.text}`);

describe("the lines that explain a failed command", () => {
	it("node --test (TAP) under npm: the failing test and its assertion, not the summary's last lines", () => {
		const excerpt = failureLines(output("npm-node-test-tap"));
		expect(excerpt.lines.map((l) => `${l.line}: ${l.text}`)).toEqual([
			"12: not ok 2 - subtracts",
			"17:   error: |-",
			"18:     Expected values to be strictly equal:",
			"20:     4 !== 3",
			"23:   name: 'AssertionError'",
		]);
		// "# fail 1" is the sixth; "# Subtest: handles errors", "ok 3 - handles errors" and "# todo 0" are not failures.
		expect(excerpt).toMatchObject({ more: 1, matched: true });
		expect(shown(output("npm-node-test-tap"), 10).at(-1)).toBe("45: # fail 1");
	});

	it("pytest: the E lines, where it failed and the short summary", () => {
		expect(shown(output("pytest-failure"), 6)).toEqual([
			"15: E       assert 2.0 == 3",
			"16: E        +  where 2.0 = divide(6, 3)",
			"18: test_calc.py:8: AssertionError",
			"20: FAILED test_calc.py::test_divide - assert 2.0 == 3",
			"21: ========================= 1 failed, 2 passed in 1.44s ==========================",
		]);
	});

	it("a Python traceback: its start, the first frame and the exception", () => {
		expect(shown(output("python-traceback"))).toEqual([
			"1: Traceback (most recent call last):",
			'2:   File "/tmp/vw/t/boom.py", line 3, in <module>',
			"7: ZeroDivisionError: division by zero",
		]);
	});

	it("npm's own error lines when the output says nothing else", () => {
		expect(shown(output("npm-missing-script"), 2)).toEqual(['1: npm error Missing script: "nosuch"', "2: npm error"]);
	});

	it("numbers the lines as the command printed them when the middle of a long output was left out", () => {
		const text = [
			"step 1",
			"[… 1200 lines (48000 bytes) omitted; the full output could not be saved: unknown error …]",
			"compiling b.c",
			"b.c:3:1: error: expected ';' before '}' token",
			"make: *** [Makefile:4: b.o] Error 1",
			"",
			"[Exit code 2]",
		].join("\n");
		expect(shown(text)).toEqual([
			"1203: b.c:3:1: error: expected ';' before '}' token",
			"1204: make: *** [Makefile:4: b.o] Error 1",
		]);
	});

	it("falls back to the last lines (without gar's trailer) when no line says what failed", () => {
		const text = `${Array.from({ length: 9 }, (_, i) => `line ${i + 1}`).join("\n")}\n\n[Killed by signal SIGTERM]`;
		expect(failureLines(text, 3)).toEqual({
			lines: [
				{ line: 7, text: "line 7" },
				{ line: 8, text: "line 8" },
				{ line: 9, text: "line 9" },
			],
			more: 0,
			matched: false,
		});
	});
});

describe("the line mode", () => {
	it("shows a failed command's explaining lines under its summary, as the app does folded", () => {
		const item: ToolItem = {
			kind: "tool",
			key: "i1",
			callId: "c1",
			name: "bash",
			argsText: "",
			args: { command: "python3 boom.py" },
			status: "error",
			isError: true,
			content: output("python-traceback"),
			details: {
				kind: "bash",
				command: "python3 boom.py",
				cwd: "/w",
				exitCode: 1,
				signal: null,
				durationMs: 90,
				timedOut: false,
				aborted: false,
				truncated: false,
				totalLines: 7,
				totalBytes: 200,
			},
		};
		expect(toolLine(item)).toBe(
			[
				"✗ bash python3 boom.py — exit 1 · 90 ms",
				"  1 Traceback (most recent call last):",
				'  2   File "/tmp/vw/t/boom.py", line 3, in <module>',
				"  7 ZeroDivisionError: division by zero",
			].join("\n"),
		);
	});
});
