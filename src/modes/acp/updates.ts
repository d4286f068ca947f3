// gar's events as ACP `session/update`s, for a live run and for the replay of a loaded session alike. Pure and
// O(event): the text goes out exactly as it came (ACP is a machine channel; the client renders it).
import type {
	ContentBlock,
	SessionUpdate,
	ToolCallContent,
	ToolCallLocation,
	ToolCallStatus,
	ToolKind,
} from "@agentclientprotocol/sdk";
import type { AgentEvent } from "../../agent/events.js";
import { resolveToolPath, type ToolDetails } from "../../tools/index.js";
import { firstLine } from "../../view/format.js";

/** How a tool call shows in the client: its title, kind and the files it touches. */
export type CallView = { title: string; kind: ToolKind; locations: ToolCallLocation[] };

const KINDS: Record<string, ToolKind> = { read: "read", write: "edit", edit: "edit", bash: "execute" };

/** The title, kind and locations of a call of `name` with `args`, paths made absolute against `cwd`. */
export function callView(name: string, args: Record<string, unknown>, cwd: string): CallView {
	const kind = KINDS[name] ?? "other";
	if (name === "bash") {
		return { title: typeof args.command === "string" ? firstLine(args.command, 200) : "bash", kind, locations: [] };
	}
	if (typeof args.path !== "string" || args.path === "") return { title: name, kind, locations: [] };
	const { abs, shown } = resolveToolPath(cwd, args.path);
	const offset = typeof args.offset === "number" && args.offset > 1 ? args.offset : undefined;
	const verb = name.charAt(0).toUpperCase() + name.slice(1);
	const title = `${verb} ${shown}${offset === undefined ? "" : ` (from line ${offset})`}`;
	return { title, kind, locations: [offset === undefined ? { path: abs } : { path: abs, line: offset }] };
}

const text = (value: string): ContentBlock => ({ type: "text", text: value });

/** Text shown as code: fenced with more backticks than any run inside it, so nothing in it can close the fence. */
export function fenced(value: string): string {
	const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
	const fence = "`".repeat(Math.max(3, longest + 1));
	return `${fence}\n${value}${value.endsWith("\n") ? "" : "\n"}${fence}`;
}

/**
 * The changed parts of a unified diff as ACP diffs of `path`, one per hunk (context lines included): the old and the
 * new text of each. A created file (`created`) has no old text. A diff without hunks (a binary note) gives none.
 */
export function diffContent(path: string, diff: string, created: boolean): ToolCallContent[] {
	const out: ToolCallContent[] = [];
	let hunk: { old: string[]; new: string[] } | null = null;
	const close = () => {
		if (!hunk) return;
		const newText = hunk.new.join("\n");
		out.push({ type: "diff", path, oldText: created ? null : hunk.old.join("\n"), newText });
	};
	for (const line of diff.split("\n")) {
		if (line.startsWith("@@")) {
			close();
			hunk = { old: [], new: [] };
			continue;
		}
		// File headers come before the first hunk; "\ No newline at end of file" is a line of neither side.
		if (!hunk || line.startsWith("\\")) continue;
		const sign = line.charAt(0);
		if (sign === "-" || sign === " ") hunk.old.push(line.slice(1));
		if (sign === "+" || sign === " ") hunk.new.push(line.slice(1));
	}
	close();
	return out;
}

/** What a finished call shows: the diff of a change, the output of a command or a read, the message of a failure. */
function endContent(
	event: Extract<AgentEvent, { type: "tool_end" }>,
	path: string | undefined,
): { content: ToolCallContent[]; locations?: ToolCallLocation[] } {
	const d: ToolDetails | null = event.details;
	const plain = (value: string): ToolCallContent => ({ type: "content", content: text(value) });
	if (event.outcome !== "done" || !d || d.kind === "error") return { content: [plain(event.content)] };
	if (d.kind === "write" || d.kind === "edit") {
		const diffs = diffContent(d.path, d.diff, d.oldHash === null);
		const line = d.kind === "edit" ? d.firstChangedLine : 1;
		return { content: diffs.length > 0 ? diffs : [plain(event.content)], locations: [{ path: d.path, line }] };
	}
	if (d.kind === "read") return { content: [plain(fenced(event.content))], locations: [{ path: path ?? d.path }] };
	return { content: [plain(fenced(event.content))] };
}

const STATUS: Record<Extract<AgentEvent, { type: "tool_end" }>["outcome"], ToolCallStatus> = {
	done: "completed",
	error: "failed",
	denied: "failed",
	skipped: "failed",
	not_run: "failed",
};

export type UpdatesOptions = {
	cwd: string;
	/** The next request's size and the model's window, for `usage_update` (no update while the window is unknown). */
	context: () => { tokens: number; window: number | null };
	/** The session's name; without one the first prompt gives the title. */
	title?: string;
	/** A continued session: only a replay of its history (not a new prompt) gives it a title. */
	hasHistory: boolean;
};

/**
 * Turns the events of one session into its updates: text and thinking as message and thought chunks, each tool call
 * as `tool_call` (when its arguments are complete) then `tool_call_update`s (running, progress, the end with a diff or
 * the output), `usage_update` after each reply and compaction (the cost summed over the session, left out once a
 * price is unknown), and the title once. User messages are echoed only when replaying (the client shows what it sent).
 */
export class SessionUpdates {
	private cost: number | null = 0;
	private titled: boolean;
	private readonly paths = new Map<string, string>();
	/** The ACP id of each call of the last reply: the model's, or made unique when an earlier reply used it too. */
	private ids = new Map<string, string>();
	/** Every ACP call id sent in this session: a client keys its tool calls by them. */
	private readonly sent = new Set<string>();

	constructor(private readonly o: UpdatesOptions) {
		this.titled = o.title !== undefined;
	}

	/** The title update for a named session (sent after a load), else none. */
	initialTitle(): SessionUpdate[] {
		return this.o.title === undefined ? [] : [{ sessionUpdate: "session_info_update", title: this.o.title }];
	}

	/** The session's usage now (none while the model's window is unknown). */
	usage(): SessionUpdate[] {
		const { tokens, window } = this.o.context();
		if (window === null) return [];
		const cost = this.cost === null ? {} : { cost: { amount: Math.round(this.cost * 1e6) / 1e6, currency: "USD" } };
		return [{ sessionUpdate: "usage_update", used: tokens, size: window, ...cost }];
	}

	/** The updates for one event (`replaying`: a loaded session's history). */
	of(event: AgentEvent, replaying = false): SessionUpdate[] {
		switch (event.type) {
			case "user_message":
				return this.user(event, replaying);
			case "text_delta":
				return [{ sessionUpdate: "agent_message_chunk", content: text(event.delta) }];
			case "thinking_delta":
				return [{ sessionUpdate: "agent_thought_chunk", content: text(event.delta) }];
			case "message_end":
				this.spend(event.costUsd);
				return [...this.calls(event.message.content), ...(replaying ? [] : this.usage())];
			case "tool_start":
				return [{ sessionUpdate: "tool_call_update", toolCallId: this.idOf(event.callId), status: "in_progress" }];
			case "tool_update":
				return [
					{
						sessionUpdate: "tool_call_update",
						toolCallId: this.idOf(event.callId),
						content: [{ type: "content", content: text(fenced(event.progress.output)) }],
					},
				];
			case "tool_end": {
				const { content, locations } = endContent(event, this.paths.get(event.callId));
				this.paths.delete(event.callId);
				const update: SessionUpdate = {
					sessionUpdate: "tool_call_update",
					toolCallId: this.idOf(event.callId),
					status: STATUS[event.outcome],
					content,
				};
				return [locations ? { ...update, locations } : update];
			}
			case "compaction_end":
				this.spend(event.costUsd === undefined ? 0 : event.costUsd);
				return replaying ? [] : this.usage();
			default:
				return [];
		}
	}

	private user(event: Extract<AgentEvent, { type: "user_message" }>, replaying: boolean): SessionUpdate[] {
		const out: SessionUpdate[] = [];
		if (replaying && event.source !== "schema_retry") {
			out.push({ sessionUpdate: "user_message_chunk", content: text(event.message.content) });
		}
		if (!this.titled && event.source === "prompt" && (replaying || !this.o.hasHistory)) {
			this.titled = true;
			out.push({ sessionUpdate: "session_info_update", title: firstLine(event.message.content.trim(), 80) });
		}
		return out;
	}

	/** The ACP id of the model's call `callId` of the last reply (the permission request names it too). */
	idOf(callId: string): string {
		return this.ids.get(callId) ?? callId;
	}

	/**
	 * A `tool_call` for each call of a reply: its arguments are whole only now. Some OpenAI-compatible servers number
	 * calls per reply (call_1 every turn): a repeated id gets a suffix (`call_1~2`), or the client would fold the new
	 * call into the old one.
	 */
	private calls(blocks: Extract<AgentEvent, { type: "message_end" }>["message"]["content"]): SessionUpdate[] {
		const out: SessionUpdate[] = [];
		this.ids = new Map();
		for (const block of blocks) {
			if (block.type !== "tool_call") continue;
			let id = block.id;
			for (let n = 2; this.sent.has(id); n++) id = `${block.id}~${n}`;
			this.sent.add(id);
			this.ids.set(block.id, id);
			const view = callView(block.name, block.arguments, this.o.cwd);
			const path = view.locations[0]?.path;
			if (path !== undefined) this.paths.set(block.id, path);
			out.push({
				sessionUpdate: "tool_call",
				toolCallId: id,
				title: view.title,
				kind: view.kind,
				status: "pending",
				locations: view.locations,
				rawInput: block.arguments,
			});
		}
		return out;
	}

	private spend(cost: number | null): void {
		this.cost = this.cost === null || cost === null ? null : this.cost + cost;
	}
}
