// Loaded when the request viewer or a sub-agent's session is first opened (never at the first frame): it builds the
// document the doc screen shows, from the conversation, its session and the view's list of calls.
import { findRequest, requestReport } from "../../inspect/request-report.js";
import type { Setup } from "../../modes/setup.js";
import { createTranscript } from "../../output/transcript.js";
import { loadSession, type RequestEntry, replayEvents, type Session } from "../../session/index.js";
import { formatCost, formatDuration, formatUsage } from "../../view/format.js";
import { requestHeader, requestSections } from "../../view/request-view.js";
import { DocView } from "../state/doc-view.js";
import type { UiStore } from "../state/store.js";

/** The sections the request viewer opens with (the raw JSON waits until asked for). */
const OPEN_FIRST = ["messages"];

/** The index in `count` calls that `which` names: "" the last, "N" the nth, "-N" from the end, else a request id. */
export function callIndex(which: string, ids: readonly string[]): number | string {
	const text = which.trim();
	if (ids.length === 0) return "no model call yet in this conversation";
	if (text === "") return ids.length - 1;
	if (/^-?\d+$/.test(text)) {
		const n = Number(text);
		const index = n < 0 ? ids.length + n : n - 1;
		if (n !== 0 && index >= 0 && index < ids.length) return index;
		return `there are ${ids.length} model calls: /request takes 1 to ${ids.length} (or -1 for the last)`;
	}
	const found = ids.indexOf(text);
	return found >= 0
		? found
		: `no model call ${text} in this conversation (/request lists them by number: 1 to ${ids.length})`;
}

/** The session's record of a call, when it was saved. */
function recordOf(session: Session | undefined, requestId: string): RequestEntry | undefined {
	if (!session) return undefined;
	try {
		return findRequest(session, { id: requestId });
	} catch {
		return undefined;
	}
}

/**
 * Opens the request viewer on the call `which` names (see callIndex); `[` and `]` step to the calls around it. The
 * report is built once per call shown: from memory for the last 8, else rebuilt from the session. Returns an error
 * in words, or undefined once it is open.
 */
export function openRequest(store: UiStore, setup: Pick<Setup, "conversation">, which: string): string | undefined {
	const { conversation } = setup;
	const show = (index: number): string | undefined => {
		const calls = store.view.calls;
		const call = calls[index];
		if (!call) return "no such model call";
		const session = conversation.session?.session;
		const record = recordOf(session, call.requestId);
		const live = conversation.recentRequest(call.requestId);
		const report = requestReport({
			...(session ? { session } : {}),
			...(record ? { record } : {}),
			...(live ? { live } : {}),
			...(call.info ? { info: call.info } : {}),
			...(call.response ? { response: call.response } : {}),
		});
		const doc = new DocView(requestHeader(report), requestSections(report));
		for (const [i, section] of doc.sections.entries()) if (OPEN_FIRST.includes(section.id)) doc.toggle(i);
		doc.selected = 0;
		store.doc = {
			doc,
			title: `Request ${index + 1} of ${calls.length} · ${call.requestId}`,
			step: (delta) => {
				const next = Math.max(0, Math.min(store.view.calls.length - 1, index + delta));
				if (next !== index) show(next);
			},
		};
		if (store.screen !== "doc") store.openScreen("doc");
		else store.changed();
		return undefined;
	};
	const index = callIndex(
		which,
		store.view.calls.map((call) => call.requestId),
	);
	return typeof index === "string" ? index : show(index);
}

/**
 * Opens a sub-agent's session read-only: its conversation as the line mode would print it, and its model calls.
 * Nothing is written to it. Returns an error in words, or undefined once it is open.
 */
export function openSession(store: UiStore, file: string): string | undefined {
	let session: Session;
	try {
		session = loadSession(file);
	} catch (error) {
		return `cannot open the sub-agent's session: ${error instanceof Error ? error.message : String(error)}`;
	}
	let text = "";
	const transcript = createTranscript((piece) => {
		text += piece;
	});
	for (const { event } of replayEvents(session)) transcript(event);
	const calls = session.entries.filter((entry): entry is RequestEntry => entry.type === "request");
	const doc = new DocView(
		[
			{ text: `session ${session.header.id} · ${session.header.cwd}`, tone: "title" },
			{ text: `${file} · read-only`, tone: "muted" },
			// The replay screen is its own app (gar replay): it replaces the view this chat is drawn from.
			{ text: `gar replay ${session.header.id} plays it at its recorded pace`, tone: "muted" },
		],
		[
			{ id: "conversation", title: "Conversation", rows: () => text.split("\n").map((line) => ({ text: line })) },
			{
				id: "calls",
				title: `Model calls  ${calls.length}`,
				rows: () =>
					calls.map((call, i) => ({
						text: `${String(i + 1).padStart(3)}  ${call.requestId}  ${call.model}  ${call.stopReason}  ${formatUsage(call.usage)}  ${formatCost(call.costUsd)}  ${formatDuration(call.durationMs)}`,
					})),
			},
		],
	);
	doc.toggle(0);
	store.doc = { doc, title: `Sub-agent session ${session.header.id} (read-only)` };
	if (store.screen !== "doc") store.openScreen("doc");
	else store.changed();
	return undefined;
}
