import { codePath } from "../code-cache.js";
import type { ToolSpec } from "../llm/types.js";
import * as z from "../text/zod.js";
import { bashSchema, createBashTool } from "./bash.js";
import type { ToolErrorDetails, ToolPreview } from "./details.js";
import { createEditTool, editSchema } from "./edit.js";
import type { FileAccess } from "./file-access.js";
import { createReadTool, readSchema } from "./read.js";
import { TreeScan } from "./tree-scan.js";
import type { AnyTool, ToolContext, ToolResult } from "./types.js";
import { createWriteTool, writeSchema } from "./write.js";

export type { AtomicFs } from "./atomic-write.js";
export { resolveLinks, writeFileAtomic } from "./atomic-write.js";
export type { BashToolOptions } from "./bash.js";
export { defaultOutputDir } from "./bash.js";
export { MAX_SAVED_BYTES } from "./bash-output.js";
export type {
	BashDetails,
	BashFileChange,
	BashFileChanges,
	EditDetails,
	ReadDetails,
	ToolDetails,
	ToolErrorDetails,
	ToolPreview,
	ToolProgress,
	WriteDetails,
} from "./details.js";
export { toolDetailsOf } from "./details-of.js";
export type { FileAccess } from "./file-access.js";
export type { FileChange, UndoKind } from "./file-change.js";
export { MAX_DIFF_CHARS, previousBytes } from "./file-change.js";
export { makeDirs } from "./make-dirs.js";
export { MAX_UNDO_BYTES } from "./old-file.js";
export type { ReapOptions, ReapResult } from "./output-reap.js";
export { reapOutputs } from "./output-reap.js";
export { resolveToolPath } from "./paths.js";
export { createBashTool, createEditTool, createReadTool, createWriteTool };

/** The four tools, in the order they are offered to the model. */
export const TOOL_NAMES = ["read", "write", "edit", "bash"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export type ToolsOptions = {
	cwd: string;
	bashTimeoutMs?: number;
	maxLines?: number;
	maxBytes?: number;
	/** Where bash saves full outputs over the limits (see BashToolOptions.outputDir). */
	outputDir?: string;
	/** What one bash call may save of its full output (50 MB). */
	maxSavedBytes?: number;
	shell?: string;
	env?: NodeJS.ProcessEnv;
	/** An editor's text of the files (ACP): read, write and edit go through it (see FileAccess). */
	files?: FileAccess;
	/** false: no stat scan of the tree around bash commands (tests of the tools alone). */
	scan?: false;
};

/** Creates read, write, edit and bash (in that order) for one working directory. */
export function createTools(options: ToolsOptions): AnyTool[] {
	const { cwd, maxLines, maxBytes, files } = options;
	return [
		createReadTool({ cwd, maxLines, maxBytes, files }),
		createWriteTool({ cwd, files }),
		createEditTool({ cwd, files }),
		createBashTool({
			cwd,
			maxLines,
			maxBytes,
			timeoutMs: options.bashTimeoutMs,
			outputDir: options.outputDir,
			maxSavedBytes: options.maxSavedBytes,
			shell: options.shell,
			env: options.env,
			...(options.scan === false ? {} : { scan: new TreeScan(cwd) }),
		}),
	];
}

type JsonSchema = Record<string, unknown>;

/** Drops noise the model does not need: `$schema` and the ±2^53 bounds zod adds to integers. */
function tidy(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(tidy);
	if (schema === null || typeof schema !== "object") return schema;
	const out: JsonSchema = {};
	for (const [key, value] of Object.entries(schema)) {
		if (key === "$schema") continue;
		if ((key === "maximum" || key === "minimum") && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
		out[key] = tidy(value);
	}
	return out;
}

/** Each parameters schema's JSON Schema, made once: the run, the loop and the context report all ask for it. */
const jsonSchemas = new WeakMap<AnyTool["parameters"], JsonSchema>();

const jsonSchemaOf = (schema: AnyTool["parameters"]) => tidy(z.toJSONSchema(schema, { io: "input" })) as JsonSchema;

/** The four tools' parameters schemas. */
const BUILT_IN: Record<ToolName, AnyTool["parameters"]> = {
	read: readSchema,
	write: writeSchema,
	edit: editSchema,
	bash: bashSchema,
};

/** The four tools' JSON Schemas, as toToolSpec makes them; the build makes them once (scripts/build.mjs). */
export function builtInJsonSchemas(): Record<ToolName, JsonSchema> {
	const entries = TOOL_NAMES.map((name) => [name, jsonSchemaOf(BUILT_IN[name])]);
	return Object.fromEntries(entries) as Record<ToolName, JsonSchema>;
}

/** builtInJsonSchemas() as the build made it, in the bundle; undefined when run from source. */
declare const GAR_TOOL_SCHEMAS: Record<ToolName, JsonSchema> | undefined;
// In the bundle zod's JSON Schema code never runs for the four tools (~1 ms of a `gar -p`).
if (typeof GAR_TOOL_SCHEMAS !== "undefined") {
	for (const name of TOOL_NAMES) jsonSchemas.set(BUILT_IN[name], GAR_TOOL_SCHEMAS[name]);
}

/** The tool as the model sees it: name, description and the JSON Schema of its input (shared: do not change it). */
export function toToolSpec(tool: AnyTool): ToolSpec {
	let parameters = jsonSchemas.get(tool.parameters);
	if (parameters === undefined) {
		parameters = jsonSchemaOf(tool.parameters);
		jsonSchemas.set(tool.parameters, parameters);
	}
	return { name: tool.name, description: tool.description, parameters };
}

/** A one-line picture of the expected arguments, e.g. `path: string, offset?: integer`. */
function signature(schema: JsonSchema): string {
	const typeOf = (s: JsonSchema | undefined): string => {
		if (!s) return "unknown";
		if (s.type === "array") return `${typeOf(s.items as JsonSchema | undefined)}[]`;
		if (s.type === "object") return `{${Object.keys((s.properties as JsonSchema | undefined) ?? {}).join(", ")}}`;
		return String(s.type ?? "unknown");
	};
	const required = new Set((schema.required as string[] | undefined) ?? []);
	const props = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
	return Object.entries(props)
		.map(([k, v]) => `${k}${required.has(k) ? "" : "?"}: ${typeOf(v)}`)
		.join(", ");
}

/** Models sometimes send a nested argument as a JSON string; returns the arguments with those parsed, if any. */
function parseJsonStrings(raw: unknown): unknown {
	if (typeof raw === "string") {
		try {
			return JSON.parse(raw);
		} catch {
			return undefined;
		}
	}
	if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return undefined;
	let changed = false;
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(raw)) {
		out[key] = value;
		if (typeof value !== "string" || !/^\s*[[{]/.test(value)) continue;
		try {
			out[key] = JSON.parse(value);
			changed = true;
		} catch {}
	}
	return changed ? out : undefined;
}

const errorResult = (error: ToolErrorDetails["error"], message: string): ToolResult<ToolErrorDetails> => ({
	content: message,
	details: { kind: "error", error, message },
	isError: true,
});

const abortedResult = (name: string) => errorResult("aborted", `The ${name} call was aborted by the user.`);

/** The arguments parsed against the tool's schema (JSON-in-string repaired), or the message for the model. */
function parseArgs(tool: AnyTool, rawArgs: unknown): { ok: true; data: unknown } | { ok: false; message: string } {
	let parsed = tool.parameters.safeParse(rawArgs);
	if (!parsed.success) {
		const repaired = parseJsonStrings(rawArgs);
		const second = repaired === undefined ? undefined : tool.parameters.safeParse(repaired);
		if (second?.success) parsed = second;
	}
	if (parsed.success) return { ok: true, data: parsed.data };
	const expected = signature(toToolSpec(tool).parameters);
	return {
		ok: false,
		message: `Invalid arguments for ${tool.name}: ${z.prettifyError(parsed.error)}\nExpected (${expected}); fix the arguments and call ${tool.name} again.`,
	};
}

/**
 * Validates raw arguments and runs the tool. Never throws: invalid arguments, a throw from the tool and an
 * abort all become error results (message only, no stack) the model can read and recover from.
 */
export async function runTool(tool: AnyTool, rawArgs: unknown, ctx: ToolContext): Promise<ToolResult> {
	codePath(`tool:${tool.name}`);
	if (ctx.signal.aborted) return abortedResult(tool.name);
	const args = parseArgs(tool, rawArgs);
	if (!args.ok) return errorResult("invalid_arguments", args.message);
	try {
		return await tool.execute(args.data, ctx);
	} catch (error) {
		if (ctx.signal.aborted) return abortedResult(tool.name);
		return errorResult("failed", error instanceof Error ? error.message : String(error));
	}
}

/**
 * What the call would do, for the approval question, computed without touching anything. Validates the
 * arguments like runTool (invalid → `{kind: "invalid"}` with the same message); null for a tool without a
 * preview (read). Never throws: a throw from the tool becomes "invalid" too.
 */
export async function previewTool(tool: AnyTool, rawArgs: unknown, signal: AbortSignal): Promise<ToolPreview | null> {
	if (!tool.preview) return null;
	const args = parseArgs(tool, rawArgs);
	if (!args.ok) return { kind: "invalid", message: args.message };
	try {
		return await tool.preview(args.data, { signal });
	} catch (error) {
		return { kind: "invalid", message: error instanceof Error ? error.message : String(error) };
	}
}
