// The ACP agent: its capabilities and the handlers of every session method, over AcpSession.
import {
	type AgentApp,
	type AgentContext,
	type AuthMethod,
	agent,
	type ClientCapabilities,
	type InitializeRequest,
	type InitializeResponse,
	type ListSessionsResponse,
	PROTOCOL_VERSION,
	RequestError,
} from "@agentclientprotocol/sdk";
import { loadConfig, MissingKeyError, resolveRun } from "../../config/index.js";
import { isUsageError } from "../../errors.js";
import { defaultModel } from "../../llm/models.js";
import { listSessions } from "../../session/index.js";
import { type BaseFlags, sessionFileOf, VERSION, workdirProblem } from "../serve.js";
import { AcpSession } from "./session.js";

export type AcpOptions = {
	flags: BaseFlags;
	env: NodeJS.ProcessEnv;
	/** Where sessions are listed when the client names no folder (the server's own). */
	cwd: string;
	log: (text: string) => void;
	/** Keys in use, masked in all output: each session adds its own. */
	secrets: Set<string>;
};

/** Sessions page by page in session/list. */
const PAGE = 100;

const AUTH: AuthMethod = {
	id: "gar-config",
	name: "API key from gar's configuration",
	description:
		"gar reads its key from ANTHROPIC_API_KEY or OPENAI_API_KEY (or the variable api_key_env names in ~/.config/gar/config.toml); set it where the editor starts gar, then try again.",
};

/** An error of gar's as the JSON-RPC error a client shows: bad input as invalid params, a missing key as auth. */
function requestErrorOf(error: unknown): unknown {
	if (error instanceof RequestError) return error;
	if (error instanceof MissingKeyError) return RequestError.authRequired(undefined, error.message);
	if (isUsageError(error)) return new RequestError(-32602, (error as Error).message);
	return error;
}

async function mapped<T>(work: () => Promise<T> | T): Promise<T> {
	try {
		return await work();
	} catch (error) {
		throw requestErrorOf(error);
	}
}

/** The open sessions of one connection and what each ACP method does with them. */
class AcpAgent {
	private readonly sessions = new Map<string, AcpSession>();
	private capabilities: ClientCapabilities = {};
	private warnedMcp = false;

	constructor(private readonly o: AcpOptions) {}

	initialize(params: InitializeRequest): InitializeResponse {
		this.capabilities = params.clientCapabilities ?? {};
		return {
			protocolVersion: PROTOCOL_VERSION,
			agentCapabilities: {
				loadSession: true,
				promptCapabilities: { embeddedContext: true },
				sessionCapabilities: { list: {}, resume: {}, close: {} },
			},
			authMethods: [AUTH],
			agentInfo: { name: "gar", title: "gar", version: VERSION },
		};
	}

	/** Succeeds when gar's configuration has a key; otherwise the error names the variable to set. */
	authenticate(methodId: string): Record<string, never> {
		if (methodId !== AUTH.id) throw RequestError.invalidParams(undefined, `no auth method ${JSON.stringify(methodId)}`);
		const { config } = loadConfig({ cwd: this.o.cwd, env: this.o.env, flags: this.o.flags });
		resolveRun(config, this.o.env, defaultModel);
		return {};
	}

	/**
	 * Opens a session: a new one, or the one `sessionId` names in `cwd` (replacing it if open); its slash commands
	 * are announced once the answer is out. `replay`: its history first, as session/load does.
	 */
	async open(
		request: { cwd: string; mcpServers?: readonly unknown[]; sessionId?: string },
		client: AgentContext,
		replay = false,
	): Promise<AcpSession> {
		const cwd = checkedCwd(request.cwd);
		this.ignoreMcp(request.mcpServers);
		const { sessionId } = request;
		const file = sessionId === undefined ? undefined : sessionFileOf(this.sessionsDir(cwd), sessionId, cwd);
		if (sessionId !== undefined) this.sessions.get(sessionId)?.close();
		const session = await AcpSession.open(
			{ ...this.o.flags, cwd, ...(file ? { session: file } : {}) },
			this.deps(client),
		);
		this.sessions.set(session.id, session);
		if (replay) session.replay();
		setImmediate(() => session.announce());
		return session;
	}

	/** The sessions of `cwd` (every folder's without one), newest first, a page at a time. */
	list(params: { cwd?: string | null; cursor?: string | null }): ListSessionsResponse {
		const cwd = params.cwd ? checkedCwd(params.cwd) : undefined;
		const from = params.cursor ? Number(params.cursor) : 0;
		if (!Number.isInteger(from) || from < 0)
			throw RequestError.invalidParams(undefined, "the cursor is not one gar gave");
		const all = listSessions(this.sessionsDir(cwd ?? this.o.cwd), cwd);
		const page = all.slice(from, from + PAGE).map((info) => ({
			sessionId: info.id,
			cwd: info.cwd,
			updatedAt: info.modifiedAt,
			...((info.name ?? info.firstPrompt) ? { title: info.name ?? info.firstPrompt } : {}),
		}));
		return { sessions: page, ...(from + PAGE < all.length ? { nextCursor: String(from + PAGE) } : {}) };
	}

	async close(sessionId: string): Promise<Record<string, never>> {
		await this.find(sessionId).shutdown();
		this.sessions.delete(sessionId);
		return {};
	}

	/** Stops the session's running prompt; a notification for no session is ignored (it has nobody to answer). */
	cancel(sessionId: string): void {
		this.sessions.get(sessionId)?.cancel();
	}

	find(sessionId: string): AcpSession {
		const session = this.sessions.get(sessionId);
		if (!session) throw RequestError.sessionNotFound(sessionId);
		return session;
	}

	/** Aborts every running prompt and closes every session (the client went away). */
	async shutdown(): Promise<void> {
		await Promise.all([...this.sessions.values()].map((s) => s.shutdown()));
		this.sessions.clear();
	}

	private sessionsDir(cwd: string): string {
		return loadConfig({ cwd, env: this.o.env, flags: this.o.flags }).config.session.dir;
	}

	private ignoreMcp(servers: readonly unknown[] | undefined): void {
		if (!servers?.length || this.warnedMcp) return;
		this.warnedMcp = true;
		this.o.log("MCP servers given to a session are ignored: gar's tools are read, write, edit and bash");
	}

	private deps(client: AgentContext) {
		return {
			client,
			capabilities: this.capabilities,
			env: this.o.env,
			log: this.o.log,
			secrets: (keys: readonly string[]) => {
				for (const key of keys) this.o.secrets.add(key);
			},
		};
	}
}

function checkedCwd(cwd: string): string {
	const problem = workdirProblem(cwd);
	if (problem) throw RequestError.invalidParams(undefined, problem);
	return cwd;
}

/** The ACP agent of `gar acp` (one handler per method), and the shutdown of every open session. */
export function createAcpAgent(o: AcpOptions): { app: AgentApp; shutdown(): Promise<void> } {
	const acp = new AcpAgent(o);
	const app = agent({ name: "gar" })
		.onRequest("initialize", ({ params }) => acp.initialize(params))
		.onRequest("authenticate", ({ params }) => mapped(() => acp.authenticate(params.methodId)))
		.onRequest("session/new", ({ params, client }) =>
			mapped(async () => {
				const session = await acp.open(params, client);
				return { sessionId: session.id, modes: session.modes };
			}),
		)
		.onRequest("session/load", ({ params, client }) =>
			mapped(async () => ({ modes: (await acp.open(params, client, true)).modes })),
		)
		.onRequest("session/resume", ({ params, client }) =>
			mapped(async () => ({ modes: (await acp.open(params, client)).modes })),
		)
		.onRequest("session/list", ({ params }) => mapped(() => acp.list(params)))
		.onRequest("session/close", ({ params }) => acp.close(params.sessionId))
		.onRequest("session/set_mode", ({ params }) => {
			acp.find(params.sessionId).setMode(params.modeId);
			return {};
		})
		.onRequest("session/prompt", ({ params }) =>
			mapped(async () => ({ stopReason: await acp.find(params.sessionId).prompt(params.prompt) })),
		)
		.onNotification("session/cancel", ({ params }) => {
			acp.cancel(params.sessionId);
		});
	return { app, shutdown: () => acp.shutdown() };
}
