// `gar mcp`: an MCP server on stdio exposing the agent (gar, gar_reply) or, with --tools, gar's own tools.
import { PassThrough } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { isUsageError } from "../../errors.js";
import {
	type BaseFlags,
	boundedLines,
	MAX_MESSAGE_BYTES,
	maskedOutput,
	refusedLine,
	tooLongMessage,
	VERSION,
} from "../serve.js";
import { agentTools, failure } from "./agent-tools.js";
import { type McpTools, ownTools } from "./tools.js";

export type McpRunOptions = {
	flags: BaseFlags;
	/** The server's folder: the working directory unless a call names one. */
	cwd: string;
	env: NodeJS.ProcessEnv;
	/** Expose read, write, edit and bash instead of the agent. */
	tools: boolean;
	stdin: NodeJS.ReadableStream;
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
	maxMessageBytes?: number;
};

/**
 * Serves MCP on stdin/stdout until stdin closes or stdout fails (the client went away); then running calls are
 * aborted (their sessions keep what was done) and the exit code is 0. A line that is not JSON is answered with a parse
 * error and one over the limit with an invalid-request error, in bounded memory; keys in use are masked in all output.
 */
export async function runMcp(o: McpRunOptions): Promise<number> {
	const max = o.maxMessageBytes ?? MAX_MESSAGE_BYTES;
	const log = (text: string) => o.stderr.write(`gar mcp: ${text}\n`);
	const secrets = new Set<string>();
	const out = maskedOutput(o.stdout, secrets);
	const base = {
		flags: o.flags,
		cwd: o.cwd,
		env: o.env,
		log,
		secrets: (keys: readonly string[]) => {
			for (const key of keys) secrets.add(key);
		},
	};
	const tools: McpTools = o.tools ? ownTools(base) : agentTools(base);
	const server = new Server({ name: "gar", version: VERSION }, { capabilities: { tools: {} } });
	server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.list() }));
	server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
		const token = request.params._meta?.progressToken;
		const progress = (step: number, message: string) => {
			if (token === undefined) return;
			extra
				.sendNotification({
					method: "notifications/progress",
					params: { progressToken: token, progress: step, message },
				})
				.catch(() => {});
		};
		try {
			const result = await tools.call(request.params.name, request.params.arguments, {
				signal: extra.signal,
				progress,
			});
			if (!result) throw new McpError(ErrorCode.InvalidParams, `no tool ${JSON.stringify(request.params.name)}`);
			return result;
		} catch (error) {
			if (isUsageError(error)) return failure((error as Error).message);
			throw error;
		}
	});
	server.onerror = (error) => log(error.message);

	const { input, ended } = filteredInput(o.stdin, o.stdout, out, max, log);
	await server.connect(new StdioServerTransport(input, out, { maxBufferSize: max + 1024 }));
	await ended;
	await tools.shutdown();
	await server.close().catch(() => {});
	return 0;
}

/**
 * stdin as the SDK's transport should get it: whole JSON lines only. A line that is not JSON is answered with a parse
 * error here (the transport would drop it unanswered) and one over `max` with an invalid-request error (it would
 * close the transport); `ended` resolves when stdin ends or stdout fails (the client went away).
 */
function filteredInput(
	stdin: NodeJS.ReadableStream,
	stdout: NodeJS.WritableStream,
	out: NodeJS.WritableStream,
	max: number,
	log: (text: string) => void,
): { input: PassThrough; ended: Promise<void> } {
	const input = new PassThrough();
	const ended = new Promise<void>((resolve) => {
		boundedLines(stdin, max, {
			line: (line) => {
				try {
					JSON.parse(line);
				} catch {
					out.write(refusedLine(-32700, "Parse error: the line is not JSON"));
					return;
				}
				input.write(`${line}\n`);
			},
			tooLong: () => {
				log(tooLongMessage(max));
				out.write(refusedLine(-32600, `Invalid request: ${tooLongMessage(max)}`));
			},
			end: resolve,
			error: () => resolve(),
		});
		stdout.on("error", () => resolve());
	});
	return { input, ended };
}
