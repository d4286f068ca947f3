// `gar mcp --tools`: gar's own tools (read, write, edit, bash) as MCP tools; and what both kinds of server share.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { runTool, toToolSpec } from "../../tools/index.js";
import type { BaseFlags } from "../serve.js";
import { setupTools } from "../setup.js";

/** What a call gets: its cancellation, and a way to report progress (a no-op when the client asked for none). */
export type CallContext = { signal: AbortSignal; progress: (step: number, message: string) => void };

/** A set of MCP tools: their list, a call (undefined: no such tool), and the end of every running call. */
export type McpTools = {
	list(): Tool[];
	call(name: string, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<CallToolResult | undefined>;
	shutdown(): Promise<void>;
};

/** What the tools of a server are made from. */
export type ServerBase = {
	flags: BaseFlags;
	/** The server's folder: the working directory unless a call names one. */
	cwd: string;
	env: NodeJS.ProcessEnv;
	/** Called with the keys in use, so the output masks them. */
	secrets: (secrets: readonly string[]) => void;
	/** Lines for the person, on stderr (configuration warnings). */
	log: (text: string) => void;
};

/**
 * read, write, edit and bash with the same limits, the same scrubbed environment and the same approval setting as a
 * conversation: under gar's `approve`, write, edit and bash calls not in agent.auto_approve are refused (nobody can
 * be asked here). Results carry the tool's details as structuredContent.
 */
export function ownTools(base: ServerBase): McpTools {
	const { tools, config, secrets, warnings } = setupTools({ ...base.flags, cwd: base.cwd }, base.env);
	base.secrets(secrets);
	for (const warning of warnings) base.log(`warning: ${warning}`);
	const running = new Set<AbortController>();
	const refused = (name: string) =>
		config.agent.approve && !config.agent.autoApprove.includes(name as (typeof config.agent.autoApprove)[number]);
	return {
		list: () =>
			tools.map((tool) => {
				const spec = toToolSpec(tool);
				return { name: spec.name, description: spec.description, inputSchema: spec.parameters as Tool["inputSchema"] };
			}),
		async call(name, args, ctx) {
			const tool = tools.find((t) => t.name === name);
			if (!tool) return undefined;
			if (tool.mutating && refused(name)) {
				const text = `gar's approve setting is on and nobody can be asked here, so ${name} is refused; list it in agent.auto_approve (or turn approve off) to let MCP clients run it`;
				return { content: [{ type: "text", text }], isError: true };
			}
			const controller = new AbortController();
			const onAbort = () => controller.abort();
			ctx.signal.addEventListener("abort", onAbort, { once: true });
			running.add(controller);
			let step = 0;
			try {
				const result = await runTool(tool, args ?? {}, {
					signal: controller.signal,
					onUpdate: (progress) => ctx.progress(++step, `${progress.totalLines} lines of output`),
				});
				return {
					content: [{ type: "text", text: result.content }],
					...(result.details ? { structuredContent: result.details as unknown as Record<string, unknown> } : {}),
					isError: result.isError,
				};
			} finally {
				running.delete(controller);
				ctx.signal.removeEventListener("abort", onAbort);
			}
		},
		async shutdown() {
			for (const controller of running) controller.abort();
		},
	};
}
