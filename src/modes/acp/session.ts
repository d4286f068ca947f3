// One ACP session: a gar Conversation (a gar session, resumable from the app) driven by an editor.
import {
	type AgentContext,
	type ClientCapabilities,
	type ContentBlock,
	RequestError,
	type SessionModeState,
	type SessionUpdate,
	type StopReason,
} from "@agentclientprotocol/sdk";
import type { ApprovalDecision, ApprovalRequest, RunResult } from "../../agent/loop.js";
import { type AskFn, ConversationBusyError } from "../../conversation/conversation.js";
import { replayEvents } from "../../session/index.js";
import type { FileAccess } from "../../tools/index.js";
import { type RunFlags, type Setup, setupRun } from "../setup.js";
import { runCommand } from "./commands.js";
import { decisionOf, permissionOptions, permissionRequest } from "./permission.js";
import { promptText } from "./prompt.js";
import { SessionUpdates } from "./updates.js";

/** How long a shutdown waits for an aborted run to end (it ends at once unless something is stuck). */
const SHUTDOWN_WAIT_MS = 2000;

/** "ask": write, edit and bash ask first; "auto": they run unasked (the default follows gar's `approve` setting). */
export type ModeId = "ask" | "auto";

const MODES: SessionModeState["availableModes"] = [
	{ id: "ask", name: "Ask before changes", description: "write, edit and bash wait for your permission" },
	{ id: "auto", name: "Run unasked", description: "write, edit and bash run without asking" },
];

export type SessionDeps = {
	client: AgentContext;
	capabilities: ClientCapabilities;
	env: NodeJS.ProcessEnv;
	/** Lines for the person, on stderr (an editor shows them in its agent log). */
	log: (text: string) => void;
	/** Called with the keys a new session uses, so the output masks them. */
	secrets: (secrets: readonly string[]) => void;
};

/** Reads and writes through the editor where it offers to (its unsaved buffers are what the model reads). */
function clientFiles(deps: SessionDeps, sessionId: () => string): FileAccess | undefined {
	const fs = deps.capabilities.fs;
	if (!fs?.readTextFile && !fs?.writeTextFile) return undefined;
	return {
		...(fs.readTextFile
			? {
					readText: async (path: string) =>
						(await deps.client.request("fs/read_text_file", { sessionId: sessionId(), path })).content,
				}
			: {}),
		...(fs.writeTextFile
			? {
					writeText: async (path: string, content: string) => {
						await deps.client.request("fs/write_text_file", { sessionId: sessionId(), path, content });
					},
				}
			: {}),
	};
}

/**
 * An ACP session over a gar Conversation: prompts run it (one at a time), its events go to the client as updates,
 * approval questions become permission requests, and the editor's files are used when it offers them.
 */
export class AcpSession {
	readonly id: string;
	private mode: ModeId;
	/** Tools the person rejected for the rest of the session ("reject always"). */
	private readonly rejected = new Set<string>();
	private readonly updates: SessionUpdates;
	private detach: () => void;
	/** The prompt turn going on, if any. */
	private running: Promise<unknown> | null = null;

	/** Opens the gar session `flags` name (new, or continued with `flags.session`) for a client. Throws on bad input. */
	static async open(flags: RunFlags, deps: SessionDeps): Promise<AcpSession> {
		let session: AcpSession | undefined;
		const ask: AskFn = (request, signal) =>
			session ? session.ask(request, signal) : Promise.resolve({ approved: false, reason: "the session is closing" });
		const files = clientFiles(deps, () => session?.id ?? "");
		const setup = await setupRun(flags, deps.env, { ask, lazySession: true, ...(files ? { files } : {}) });
		session = new AcpSession(setup, deps, flags.cwd);
		return session;
	}

	private constructor(
		readonly setup: Setup,
		private readonly deps: SessionDeps,
		readonly cwd: string,
	) {
		const { conversation } = setup;
		this.id = conversation.session?.session.header.id ?? "";
		this.mode = setup.config.agent.approve ? "ask" : "auto";
		deps.secrets(setup.secrets);
		for (const warning of setup.warnings) deps.log(`warning: ${warning}`);
		const saved = conversation.session?.session;
		const title = saved?.name;
		this.updates = new SessionUpdates({
			cwd,
			context: () => conversation.context,
			hasHistory: (saved?.entries.length ?? 0) > 0,
			...(title === undefined ? {} : { title }),
		});
		this.detach = setup.channel.subscribe((event) => {
			if (event.type === "notice") deps.log(`${event.level}: ${event.message}`);
			else if (event.type === "session_error") deps.log(`could not save the session to ${event.file}: ${event.error}`);
			this.send(this.updates.of(event));
		});
	}

	/** The modes a client may pick, and the one in effect. */
	get modes(): SessionModeState {
		return { currentModeId: this.mode, availableModes: MODES };
	}

	/** Switches between asking and running unasked; the calls of a running reply follow at once. */
	setMode(modeId: string): void {
		if (modeId !== "ask" && modeId !== "auto") {
			throw RequestError.invalidParams(undefined, `no mode ${JSON.stringify(modeId)}; the modes are ask and auto`);
		}
		this.mode = modeId;
		this.setup.conversation.setApprovalRequired(modeId === "ask");
	}

	/** Sends the loaded session's history as updates (ACP's session/load), then its title and usage. */
	replay(): void {
		const writer = this.setup.conversation.session;
		if (!writer) return;
		for (const { event } of replayEvents(writer.session)) this.send(this.updates.of(event, true));
		this.send([...this.updates.initialTitle(), ...this.updates.usage()]);
	}

	/** Sends what follows a session's start: the slash commands, and for a continued session its usage. */
	announce(): void {
		const commands: SessionUpdate = {
			sessionUpdate: "available_commands_update",
			availableCommands: [
				{
					name: "compact",
					description: "summarize older messages to free context",
					input: { hint: "focus (optional)" },
				},
				{ name: "context", description: "how full the context is" },
				{
					name: "model",
					description: "show or switch the model (PROVIDER/NAME switches the provider)",
					input: { hint: "model" },
				},
			],
		};
		this.send([commands]);
	}

	/**
	 * Runs one prompt turn: a slash command (/compact, /context, /model), or a run of the conversation. A second prompt
	 * while one runs is refused: ACP turns take turns (session/cancel stops the running one).
	 */
	async prompt(blocks: ContentBlock[]): Promise<StopReason> {
		const { conversation } = this.setup;
		if (conversation.running) {
			throw RequestError.invalidRequest(
				undefined,
				"a prompt is already running in this session; wait for its answer, or send session/cancel first",
			);
		}
		const text = promptText(blocks);
		try {
			const command = await runCommand(text, this.setup);
			if (command) {
				this.send([{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: command.reply } }]);
				return command.cancelled ? "cancelled" : "end_turn";
			}
			const run = conversation.run(text);
			this.running = run;
			return stopReasonOf(await run);
		} catch (error) {
			if (error instanceof ConversationBusyError) throw RequestError.invalidRequest(undefined, error.message);
			throw error;
		} finally {
			this.running = null;
		}
	}

	/** Aborts the running prompt, if any: it then answers `cancelled`. */
	cancel(): void {
		this.setup.conversation.abort();
	}

	/** Aborts what runs and closes the session file (it stays resumable). */
	close(): void {
		this.setup.conversation.close();
		this.detach();
	}

	/** Aborts the running prompt and waits (a little) for it to end, so the session keeps its end; then closes. */
	async shutdown(): Promise<void> {
		this.cancel();
		const running = this.running;
		if (running) {
			let timer: NodeJS.Timeout | undefined;
			const waited = new Promise<void>((resolve) => {
				timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
			});
			await Promise.race([running.catch(() => {}), waited]);
			clearTimeout(timer);
		}
		this.close();
	}

	/** The one approval path's question, asked through the client (rejected tools are refused without asking). */
	private async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
		if (this.rejected.has(request.name)) {
			return { approved: false, reason: `the user rejected ${request.name} calls for the rest of this session` };
		}
		try {
			const response = await this.deps.client.request(
				"session/request_permission",
				{
					sessionId: this.id,
					toolCall: permissionRequest(request, this.cwd, this.updates.idOf(request.callId)),
					options: permissionOptions(request.name, request.prefixes),
				},
				{ cancellationSignal: signal, stopWaitingOnCancel: true },
			);
			const decision = decisionOf(response.outcome, request.name, request.prefixes);
			if (decision.rejectAlways) this.rejected.add(request.name);
			return decision.decision;
		} catch (error) {
			if (signal.aborted) return { approved: false, reason: "the prompt was cancelled" };
			const why = error instanceof Error ? error.message : String(error);
			return { approved: false, reason: `the permission request failed (${why})` };
		}
	}

	private send(updates: readonly SessionUpdate[]): void {
		for (const update of updates) {
			// A client gone away ends the server (see run.ts); a notification it missed is no error here.
			this.deps.client.notify("session/update", { sessionId: this.id, update }).catch(() => {});
		}
	}
}

/** How a run ended, as ACP says it; a failure other than a refusal is an error response with gar's words. */
export function stopReasonOf(run: RunResult): StopReason {
	switch (run.stopReason) {
		case "done":
			return "end_turn";
		case "aborted":
			return "cancelled";
		case "max_turns":
			return "max_turn_requests";
		case "length":
			return "max_tokens";
		case "error":
			if (run.errorKind === "refusal") return "refusal";
			throw RequestError.internalError({ errorKind: run.errorKind ?? "other" }, run.error ?? "the run failed");
	}
}
