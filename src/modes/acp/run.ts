// `gar acp`: the ACP agent on stdio, until the client goes away.
import { ndJsonStream } from "@agentclientprotocol/sdk";
import {
	type BaseFlags,
	boundedLines,
	MAX_MESSAGE_BYTES,
	maskedOutput,
	refusedLine,
	tooLongMessage,
} from "../serve.js";
import { createAcpAgent } from "./agent.js";

export type AcpRunOptions = {
	flags: BaseFlags;
	/** The server's own folder: config for authenticate, the default of session/list. */
	cwd: string;
	env: NodeJS.ProcessEnv;
	stdin: NodeJS.ReadableStream;
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
	/** The longest message read (MAX_MESSAGE_BYTES); longer ones are refused unread. */
	maxMessageBytes?: number;
};

/**
 * Serves ACP on stdin/stdout (newline-delimited JSON-RPC) until stdin closes or stdout fails (the client went away):
 * then every running prompt is aborted, its session file closed (each stays resumable, `gar -c` included), and the
 * exit code is 0. Nothing but protocol messages goes to stdout; the person's lines go to stderr. Keys in use are
 * masked in every message. A message over the limit is answered with an error and skipped, in bounded memory.
 */
export async function runAcp(o: AcpRunOptions): Promise<number> {
	const max = o.maxMessageBytes ?? MAX_MESSAGE_BYTES;
	const log = (text: string) => o.stderr.write(`gar acp: ${text}\n`);
	const secrets = new Set<string>();
	const out = maskedOutput(o.stdout, secrets);
	let gone = false;
	const output = new WritableStream<Uint8Array>({
		write: (chunk) =>
			new Promise<void>((resolve, reject) => {
				if (gone) return reject(new Error("the client went away"));
				out.write(Buffer.from(chunk), (error) => (error ? reject(error) : resolve()));
			}),
	});
	const encoder = new TextEncoder();
	const input = new ReadableStream<Uint8Array>({
		start(controller) {
			boundedLines(o.stdin, max, {
				line: (line) => controller.enqueue(encoder.encode(`${line}\n`)),
				tooLong: () => {
					log(tooLongMessage(max));
					out.write(refusedLine(-32600, `Invalid request: ${tooLongMessage(max)}`));
				},
				end: () => controller.close(),
				error: (error) => controller.error(error),
			});
		},
	});
	const { app, shutdown } = createAcpAgent({ flags: o.flags, env: o.env, cwd: o.cwd, log, secrets });
	const connection = app.connect(ndJsonStream(output, input));
	o.stdout.on("error", () => {
		gone = true;
		connection.close();
	});
	await connection.closed.catch(() => {});
	await shutdown();
	return 0;
}
