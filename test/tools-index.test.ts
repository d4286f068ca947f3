import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs build script without type declarations
import { toolSchemas } from "../scripts/build.mjs";
import { APPROVABLE_TOOLS } from "../src/config/schema.js";
import * as z from "../src/text/zod.js";
import { builtInJsonSchemas, createTools, runTool, TOOL_NAMES, toToolSpec } from "../src/tools/index.js";
import type { AnyTool, ToolContext } from "../src/tools/types.js";

let dir: string;
const ctx = (signal = new AbortController().signal): ToolContext => ({ signal });

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gar-tools-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

const tool = (name: string): AnyTool => {
	const found = createTools({ cwd: dir }).find((t) => t.name === name);
	if (!found) throw new Error(`no tool ${name}`);
	return found;
};

/** Every property in a JSON Schema, with its path. */
function properties(schema: Record<string, unknown>, path = ""): [string, Record<string, unknown>][] {
	const out: [string, Record<string, unknown>][] = [];
	const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
	for (const [key, value] of Object.entries(props)) {
		out.push([`${path}${key}`, value]);
		const items = value.items as Record<string, unknown> | undefined;
		if (items?.type === "object") out.push(...properties(items, `${path}${key}[].`));
	}
	return out;
}

describe("tool set", () => {
	it("the build's JSON Schemas of the four tools (the bundle sends those) are zod's own of their schemas", async () => {
		const built = await toolSchemas();
		expect(built).toEqual(builtInJsonSchemas());
		for (const tool of createTools({ cwd: dir })) expect(built[tool.name]).toEqual(toToolSpec(tool).parameters);
	});

	it("creates read, write, edit, bash in order; only read is not mutating", () => {
		const tools = createTools({ cwd: dir, bashTimeoutMs: 5000 });
		expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
		expect(tools.map((t) => t.mutating)).toEqual([false, true, true, true]);
		expect(tools[3]?.description).toContain("Default timeout 5 s");
	});

	it("are the tools config's auto_approve may name", () => {
		expect([...APPROVABLE_TOOLS]).toEqual([...TOOL_NAMES]);
	});

	it("gives the model a clean JSON Schema with a description on every field", () => {
		for (const t of createTools({ cwd: dir })) {
			const spec = toToolSpec(t);
			expect(spec.name).toBe(t.name);
			expect(spec.description.length).toBeGreaterThan(20);
			expect(spec.parameters.$schema).toBeUndefined();
			expect(spec.parameters.type).toBe("object");
			expect(JSON.stringify(spec.parameters)).not.toContain(String(Number.MAX_SAFE_INTEGER));
			for (const [path, prop] of properties(spec.parameters)) {
				expect(typeof prop.description, `${t.name}.${path}`).toBe("string");
			}
		}
		expect(toToolSpec(tool("read")).parameters).toEqual({
			type: "object",
			properties: {
				path: { type: "string", minLength: 1, description: expect.any(String) },
				offset: { type: "integer", minimum: 1, description: expect.any(String) },
				limit: { type: "integer", minimum: 1, description: expect.any(String) },
			},
			required: ["path"],
		});
	});
});

describe("runTool", () => {
	it("runs a tool with valid arguments", async () => {
		writeFileSync(join(dir, "a.txt"), "x\n");
		const r = await runTool(tool("read"), { path: "a.txt" }, ctx());
		expect(r).toMatchObject({ content: "1\tx", isError: false });
	});

	it("turns invalid arguments into an error the model can act on", async () => {
		const r = await runTool(tool("read"), { path: 3, offset: 0 }, ctx());
		expect(r.isError).toBe(true);
		expect(r.content).toBe(
			"Invalid arguments for read: ✖ Invalid input: expected string, received number\n  → at path\n✖ Too small: expected number to be >=1\n  → at offset\nExpected (path: string, offset?: integer, limit?: integer); fix the arguments and call read again.",
		);
		expect(r.details).toEqual({ kind: "error", error: "invalid_arguments", message: r.content });
		const none = await runTool(tool("edit"), undefined, ctx());
		expect(none.content).toContain("Expected (path: string, edits: {oldText, newText}[])");
	});

	it("accepts numbers sent as strings and nested arguments sent as JSON text", async () => {
		writeFileSync(join(dir, "a.txt"), "1\n2\n3\n");
		expect((await runTool(tool("read"), { path: "a.txt", offset: "3" }, ctx())).content).toBe("3\t3");
		const edits = JSON.stringify([{ oldText: "2", newText: "two" }]);
		const r = await runTool(tool("edit"), { path: "a.txt", edits }, ctx());
		expect(r.isError).toBe(false);
		expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("1\ntwo\n3\n");
	});

	it("turns a throw into an error result without a stack", async () => {
		const r = await runTool(tool("read"), { path: "missing.txt" }, ctx());
		expect(r.isError).toBe(true);
		expect(r.content).toMatch(/^File not found: missing\.txt\./);
		expect(r.content).not.toContain("    at ");
		const odd: AnyTool = {
			name: "odd",
			description: "throws a string",
			parameters: z.object({}),
			mutating: false,
			execute: () => Promise.reject("plain string"),
		};
		expect((await runTool(odd, {}, ctx())).details).toEqual({
			kind: "error",
			error: "failed",
			message: "plain string",
		});
	});

	it("returns an aborted result when the signal is aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		const r = await runTool(tool("write"), { path: "x.txt", content: "x" }, ctx(controller.signal));
		expect(r).toMatchObject({ isError: true, content: "The write call was aborted by the user." });
		const later = new AbortController();
		const slow: AnyTool = {
			name: "slow",
			description: "aborts midway",
			parameters: z.object({}),
			mutating: false,
			execute: async () => {
				later.abort();
				throw new Error("Operation aborted");
			},
		};
		expect((await runTool(slow, {}, ctx(later.signal))).details).toMatchObject({ kind: "error", error: "aborted" });
	});
});
