// The ACP SDK's own client side, connected to the built `gar acp` as an editor would start it.
import { type ChildProcess, spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import {
	type ClientCapabilities,
	type ClientConnection,
	client,
	ndJsonStream,
	type RequestPermissionRequest,
	type RequestPermissionResponse,
	type SessionNotification,
} from "@agentclientprotocol/sdk";
import { GAR_BIN } from "./cli.js";

export type AcpHarness = {
	child: ChildProcess;
	connection: ClientConnection;
	/** Every session/update received, in order. */
	updates: SessionNotification[];
	/** Every permission request received, in order. */
	permissions: RequestPermissionRequest[];
	/** Everything gar wrote to stdout (to check what crossed the wire). */
	stdout: () => string;
	stderr: () => string;
	/** Resolves when gar exits, with its code. */
	exited: Promise<number | null>;
	initialize: (capabilities?: ClientCapabilities) => Promise<unknown>;
};

export type AcpClientOptions = {
	env: NodeJS.ProcessEnv;
	cwd: string;
	/** Root options for gar before `acp` (e.g. --base-url, --approve). */
	args?: string[];
	/** How the person answers a permission request (default: allow once). */
	permission?: (request: RequestPermissionRequest) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
	/** The editor's buffers: fs/read_text_file answers from here (else the disk), fs/write_text_file writes here. */
	buffers?: Map<string, string>;
};

/** Starts `gar [args] acp` and connects the SDK's client to it over its stdio. */
export function startAcp(o: AcpClientOptions): AcpHarness {
	const child = spawn(process.execPath, [GAR_BIN, ...(o.args ?? []), "acp"], {
		env: o.env,
		cwd: o.cwd,
		stdio: ["pipe", "pipe", "pipe"],
	});
	let out = "";
	let err = "";
	child.stderr?.setEncoding("utf8").on("data", (d: string) => {
		err += d;
	});
	const stdout = child.stdout as Readable;
	// The SDK reads the same stream as bytes: decoded apart, a character split across chunks stays whole.
	const decoder = new StringDecoder("utf8");
	stdout.on("data", (d: Buffer) => {
		out += decoder.write(d);
	});
	const updates: SessionNotification[] = [];
	const permissions: RequestPermissionRequest[] = [];
	const buffers = o.buffers;
	const app = client({ name: "gar-test" })
		.onNotification("session/update", ({ params }) => {
			updates.push(params);
		})
		.onRequest("session/request_permission", async ({ params }) => {
			permissions.push(params);
			return o.permission ? o.permission(params) : { outcome: { outcome: "selected", optionId: "allow_once" } };
		})
		.onRequest("fs/read_text_file", async ({ params }) => {
			const text = buffers?.get(params.path);
			if (text !== undefined) return { content: text };
			const { readFileSync } = await import("node:fs");
			return { content: readFileSync(params.path, "utf8") };
		})
		.onRequest("fs/write_text_file", ({ params }) => {
			buffers?.set(params.path, params.content);
			return {};
		});
	child.stdin?.on("error", () => {});
	const stream = ndJsonStream(
		Writable.toWeb(child.stdin as Writable) as WritableStream<Uint8Array>,
		Readable.toWeb(stdout) as ReadableStream<Uint8Array>,
	);
	const connection = app.connect(stream);
	const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
	return {
		child,
		connection,
		updates,
		permissions,
		stdout: () => out,
		stderr: () => err,
		exited,
		initialize: (capabilities = {}) =>
			connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: capabilities }),
	};
}
