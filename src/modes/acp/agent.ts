// The ACP agent: its capabilities and the handlers of every session method, over AcpSession.
import {
	type AgentApp,
	type AgentContext,
	type AuthMethod,
	agent,
	type ClientCapabilities,
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

/** The ACP agent of `gar acp`, and the shutdown of every open session (the client went away). */
export function createAcpAgent(o: AcpOptions): { app: AgentApp; shutdown(): Promise<void> } {
	const sessions = new Map<string, AcpSession>();
	let capabilities: ClientCapabilities = {};
	let warnedMcp = false;

	const checkedCwd = (cwd: string) => {
		const problem = workdirProblem(cwd);
		if (problem) throw RequestError.invalidParams(undefined, problem);
		return cwd;
	};
	const sessionsDir = (cwd: string) => loadConfig({ cwd, env: o.env, flags: o.flags }).config.session.dir;
	const ignoreMcp = (servers: readonly unknown[] | undefined) => {
		if (!servers?.length || warnedMcp) return;
		warnedMcp = true;
		o.log("MCP servers given to a session are ignored: gar's tools are read, write, edit and bash");
	};
	const deps = (client: AgentContext) => ({
		client,
		capabilities,
		env: o.env,
		log: o.log,
		secrets: (keys: readonly string[]) => {
			for (const key of keys) o.secrets.add(key);
		},
	});
	const find = (sessionId: string) => {
		const session = sessions.get(sessionId);
		if (!session) throw RequestError.sessionNotFound(sessionId);
		return session;
	};
	/** Opens a session (new, or the one `sessionId` names in `cwd`), replacing an open one of the same id. */
	const open = async (cwd: string, client: AgentContext, sessionId?: string) => {
		const file = sessionId === undefined ? undefined : sessionFileOf(sessionsDir(cwd), sessionId, cwd);
		sessions.get(sessionId ?? "")?.close();
		const session = await AcpSession.open({ ...o.flags, cwd, ...(file ? { session: file } : {}) }, deps(client));
		sessions.set(session.id, session);
		return session;
	};
	const later = (work: () => void) => setImmediate(work);

	const app = agent({ name: "gar" })
		.onRequest("initialize", ({ params }) => {
			capabilities = params.clientCapabilities ?? {};
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
		})
		.onRequest("authenticate", ({ params }) =>
			mapped(() => {
				if (params.methodId !== AUTH.id) {
					throw RequestError.invalidParams(undefined, `no auth method ${JSON.stringify(params.methodId)}`);
				}
				const { config } = loadConfig({ cwd: o.cwd, env: o.env, flags: o.flags });
				resolveRun(config, o.env, defaultModel);
				return {};
			}),
		)
		.onRequest("session/new", ({ params, client }) =>
			mapped(async () => {
				ignoreMcp(params.mcpServers);
				const session = await open(checkedCwd(params.cwd), client);
				later(() => session.announce());
				return { sessionId: session.id, modes: session.modes };
			}),
		)
		.onRequest("session/load", ({ params, client }) =>
			mapped(async () => {
				ignoreMcp(params.mcpServers);
				const session = await open(checkedCwd(params.cwd), client, params.sessionId);
				session.replay();
				later(() => session.announce());
				return { modes: session.modes };
			}),
		)
		.onRequest("session/resume", ({ params, client }) =>
			mapped(async () => {
				ignoreMcp(params.mcpServers);
				const session = await open(checkedCwd(params.cwd), client, params.sessionId);
				later(() => session.announce());
				return { modes: session.modes };
			}),
		)
		.onRequest("session/list", ({ params }) =>
			mapped((): ListSessionsResponse => {
				const cwd = params.cwd ? checkedCwd(params.cwd) : undefined;
				const from = params.cursor ? Number(params.cursor) : 0;
				if (!Number.isInteger(from) || from < 0)
					throw RequestError.invalidParams(undefined, "the cursor is not one gar gave");
				const all = listSessions(sessionsDir(cwd ?? o.cwd), cwd);
				const page = all.slice(from, from + PAGE).map((info) => ({
					sessionId: info.id,
					cwd: info.cwd,
					updatedAt: info.modifiedAt,
					...((info.name ?? info.firstPrompt) ? { title: info.name ?? info.firstPrompt } : {}),
				}));
				return { sessions: page, ...(from + PAGE < all.length ? { nextCursor: String(from + PAGE) } : {}) };
			}),
		)
		.onRequest("session/close", async ({ params }) => {
			await find(params.sessionId).shutdown();
			sessions.delete(params.sessionId);
			return {};
		})
		.onRequest("session/set_mode", ({ params }) => {
			find(params.sessionId).setMode(params.modeId);
			return {};
		})
		.onRequest("session/prompt", ({ params }) =>
			mapped(async () => ({ stopReason: await find(params.sessionId).prompt(params.prompt) })),
		)
		.onNotification("session/cancel", ({ params }) => {
			sessions.get(params.sessionId)?.cancel();
		});

	return {
		app,
		shutdown: async () => {
			await Promise.all([...sessions.values()].map((s) => s.shutdown()));
			sessions.clear();
		},
	};
}
