import type * as z from "../text/zod.js";
import type { ToolDetails, ToolPreview, ToolProgress } from "./details.js";

export type { ToolDetails, ToolPreview, ToolProgress } from "./details.js";

/**
 * A tool's result, split: `content` is the text the model reads; `details` is structured data for the UI and
 * the session file (a diff, an exit code, truncation facts). Only `content` is ever sent to the model.
 */
export type ToolResult<D = ToolDetails | null> = { content: string; details: D; isError: boolean };

export type ToolContext = {
	/** Aborts the call: tools stop work and return or throw promptly. */
	signal: AbortSignal;
	/** Partial details while the tool runs (e.g. bash output so far); tools throttle their own updates. */
	onUpdate?: (progress: ToolProgress) => void;
};

/**
 * A tool the agent can call. `execute` may throw: the loop turns a throw into an error result the model reads.
 * Parameters arrive already validated against `parameters`.
 */
export interface Tool<P = unknown, D extends ToolDetails = ToolDetails> {
	readonly name: string;
	readonly description: string;
	readonly parameters: z.ZodMiniType<P>;
	/** Mutating tools (write, edit, bash) wait for the person's decision under --approve. */
	readonly mutating: boolean;
	execute(params: P, ctx: ToolContext): Promise<ToolResult<D>>;
	/**
	 * Mutating tools: what the call would do, computed without touching anything (read-only), for approval.
	 * Parameters arrive validated. May throw; `previewTool` turns a throw into an "invalid" preview.
	 */
	preview?(params: P, ctx: { signal: AbortSignal }): Promise<ToolPreview>;
}

/** Tools of mixed parameter types in one list. */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous list of tools cannot name one parameter type.
export type AnyTool = Tool<any, ToolDetails>;

/** Output limits shared by read and bash: whichever is hit first. */
export const MAX_LINES = 2000;
export const MAX_BYTES = 50 * 1024;
