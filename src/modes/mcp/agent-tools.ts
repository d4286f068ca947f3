// `gar mcp`: the agent itself as two MCP tools, `gar` (a new session) and `gar_reply` (continue one).
import { resolve } from "node:path";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { AgentEvent } from "../../agent/events.js";
import { loadConfig } from "../../config/index.js";
import { type PrintResult, roundCost, toPrintResult } from "../../output/print-output.js";
import { readSessionInfo } from "../../session/index.js";
import * as z from "../../text/zod.js";
import { toolTarget } from "../../view/format.js";
import { outputSchema } from "../output-schema.js";
import { sessionFileOf, workdirProblem } from "../serve.js";
import { type RunFlags, setupRun } from "../setup.js";
import type { CallContext, McpTools, ServerBase } from "./tools.js";

const garArgs = z.strictObject({
	prompt: z.string().check(z.minLength(1), z.describe("The task, as you would give it to gar -p.")),
	cwd: z
		.optional(z.string().check(z.minLength(1)))
		.check(z.describe("The project folder (absolute, or relative to the server's); default: the server's folder.")),
	model: z
		.optional(z.string().check(z.minLength(1)))
		.check(z.describe("Model id, e.g. claude-sonnet-4-5 or gpt-5; default: gar's config.")),
	provider: z.optional(z.enum(["anthropic", "openai"])).check(z.describe("Model provider; default: gar's config.")),
	approval: z
		.optional(z.enum(["ask", "auto"]))
		.check(
			z.describe(
				'"ask": write, edit and bash calls not in agent.auto_approve are refused (nobody can be asked here); "auto": they run. Default: gar\'s approve setting.',
			),
		),
	schema: z
		.optional(z.record(z.string(), z.unknown()))
		.check(
			z.describe("A JSON Schema the final answer must match; the parsed answer is in structuredContent.structured."),
		),
	max_turns: z.optional(z.int().check(z.gte(1))).check(z.describe("Model calls before gar stops (default 50).")),
});

const replyArgs = z.strictObject({
	session_id: z.string().check(z.minLength(1), z.describe("The sessionId a gar call returned.")),
	prompt: z.string().check(z.minLength(1), z.describe("The next message of that conversation.")),
});

const usage = {
	type: "object",
	properties: {
		input: { type: "number" },
		output: { type: "number" },
		cacheRead: { type: "number" },
		cacheWrite: { type: "number" },
	},
};

/** What both tools return as structuredContent (README "gar mcp"). */
const RESULT_SCHEMA = {
	type: "object" as const,
	properties: {
		sessionId: { type: ["string", "null"], description: "Pass it to gar_reply to continue." },
		stopReason: { type: "string", enum: ["done", "max_turns", "error", "aborted", "length"] },
		turns: { type: "number" },
		usage,
		costUsd: { type: ["number", "null"], description: "Dollars; null when a price is unknown." },
		structured: { description: "The answer parsed against the schema, when one was given." },
		error: { type: "string" },
	},
	required: ["sessionId", "stopReason", "turns", "usage", "costUsd"],
};

/** A tool's input schema for clients: what zod makes of it, without the $schema line. */
function inputSchema(schema: z.ZodMiniType): Tool["inputSchema"] {
	const { $schema: _, ...json } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
	return json as Tool["inputSchema"];
}

/** An error result the calling model reads (bad arguments, a folder that is not there, a busy session…). */
export function failure(text: string): CallToolResult {
	return { content: [{ type: "text", text }], isError: true };
}

const TOOLS: Tool[] = [
	{
		name: "gar",
		description:
			"Run gar, a coding agent with read, write, edit and bash, on a task in a project folder. Returns its final answer; structuredContent has the sessionId (for gar_reply), stop reason, turns, token usage and cost.",
		inputSchema: inputSchema(garArgs),
		outputSchema: RESULT_SCHEMA,
	},
	{
		name: "gar_reply",
		description: "Continue a gar session (its sessionId from an earlier gar call) with another message.",
		inputSchema: inputSchema(replyArgs),
		outputSchema: RESULT_SCHEMA,
	},
];

/** A run's result as the tools return it: the answer as text, the figures as structuredContent. */
function callResult(result: PrintResult): CallToolResult {
	const structured = {
		sessionId: result.sessionId,
		stopReason: result.stopReason,
		turns: result.turns,
		usage: result.usage,
		costUsd: roundCost(result.costUsd),
		...(result.structured === undefined ? {} : { structured: result.structured }),
		...(result.error === undefined ? {} : { error: result.error }),
	};
	const text = result.result || result.error || `gar stopped: ${result.stopReason}`;
	return { content: [{ type: "text", text }], structuredContent: structured, isError: !result.ok };
}

/**
 * The agent tools: each call is one run of a gar session (saved and resumable like any other), headless as in
 * gar -p, reporting each tool step as a progress notification; a cancelled call aborts its run. A session takes one
 * call at a time.
 */
class AgentTools implements McpTools {
	/** Sessions a gar_reply runs in now: two runs appending to one session file would interleave their entries. */
	private readonly busy = new Set<string>();
	private readonly running = new Set<{ abort(): void; done: Promise<unknown> }>();

	constructor(private readonly base: ServerBase) {}

	list(): Tool[] {
		return TOOLS;
	}

	async call(name: string, args: Record<string, unknown> | undefined, ctx: CallContext) {
		if (name === "gar") return this.gar(args, ctx);
		if (name === "gar_reply") return this.reply(args, ctx);
		return undefined;
	}

	async shutdown(): Promise<void> {
		const all = [...this.running];
		for (const handle of all) handle.abort();
		await Promise.all(all.map((h) => h.done.catch(() => {})));
	}

	private async gar(args: Record<string, unknown> | undefined, ctx: CallContext): Promise<CallToolResult> {
		const parsed = garArgs.safeParse(args ?? {});
		if (!parsed.success) return failure(`Invalid arguments for gar: ${z.prettifyError(parsed.error)}`);
		const a = parsed.data;
		const cwd = a.cwd === undefined ? this.base.cwd : resolve(this.base.cwd, a.cwd);
		const problem = workdirProblem(cwd);
		if (problem) return failure(problem);
		const flags: RunFlags = {
			...this.base.flags,
			cwd,
			...(a.model ? { model: a.model } : {}),
			...(a.provider ? { provider: a.provider } : {}),
			...(a.approval ? { approve: a.approval === "ask" } : {}),
			...(a.max_turns ? { maxTurns: a.max_turns } : {}),
		};
		return this.run(flags, a.prompt, ctx, a.schema);
	}

	private async reply(args: Record<string, unknown> | undefined, ctx: CallContext): Promise<CallToolResult> {
		const parsed = replyArgs.safeParse(args ?? {});
		if (!parsed.success) return failure(`Invalid arguments for gar_reply: ${z.prettifyError(parsed.error)}`);
		const { session_id: id, prompt } = parsed.data;
		if (this.busy.has(id)) return failure(`session ${id} is busy with another call; wait for it to end`);
		this.busy.add(id);
		try {
			const { base } = this;
			const dir = loadConfig({ cwd: base.cwd, env: base.env, flags: base.flags }).config.session.dir;
			const file = sessionFileOf(dir, id);
			return await this.run({ ...base.flags, cwd: readSessionInfo(file).cwd, session: file }, prompt, ctx);
		} finally {
			this.busy.delete(id);
		}
	}

	/** One run of a session: set up, run with progress and cancellation, and the result in both forms. */
	private async run(flags: RunFlags, prompt: string, ctx: CallContext, schema?: Record<string, unknown>) {
		const output = schema ? await outputSchema(schema, "schema") : undefined;
		const setup = await setupRun(flags, this.base.env, output ? { output } : {});
		this.base.secrets(setup.secrets);
		for (const warning of setup.warnings) this.base.log(`warning: ${warning}`);
		const { conversation } = setup;
		let sessionError: string | undefined;
		let step = 0;
		setup.channel.subscribe((event: AgentEvent) => {
			if (event.type === "session_error") sessionError ??= `could not save the session: ${event.error}`;
			if (event.type === "tool_start") ctx.progress(++step, `${event.name} ${toolTarget(event)}`);
		});
		const abort = () => conversation.abort();
		ctx.signal.addEventListener("abort", abort, { once: true });
		const handle = { abort, done: conversation.run(prompt) };
		this.running.add(handle);
		try {
			const sessionId = conversation.session?.session.header.id ?? null;
			return callResult(toPrintResult(await handle.done, sessionId, sessionError));
		} finally {
			this.running.delete(handle);
			ctx.signal.removeEventListener("abort", abort);
			await conversation.close();
		}
	}
}

/** The agent tools of `gar mcp`: gar and gar_reply. */
export function agentTools(base: ServerBase): McpTools {
	return new AgentTools(base);
}
