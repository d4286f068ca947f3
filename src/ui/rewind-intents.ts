import type { Conversation } from "../conversation/conversation.js";
import {
	applyRewind,
	previewRewind,
	promptsOnPath,
	type RewindMode,
	type RewindReport,
	redoRewind,
	withRewindLock,
} from "../rewind/api.js";
import { reportLines, reportSummary } from "../rewind/report.js";
import { shownPath } from "../session/changes.js";
import type { Session, SessionWriter } from "../session/index.js";
import type { SessionIntents } from "./screens/screen.js";
import type { InputModel } from "./state/input-model.js";
import { openRewindView, type PreviewLine, type RewindPlace, type RewindRow, RewindView } from "./state/rewind-view.js";
import type { UiStore } from "./state/store.js";

/** The app does not wait for another gar's rewind of the session (the wait would freeze the screen): it says so. */
const NO_WAIT = 0;

export type RewindIntentDeps = {
	conversation: Conversation;
	store: UiStore;
	input: InputModel;
	notice: (message: string, level?: "info" | "warning") => void;
	/** The chat shows the current path again. */
	redraw: () => void;
	notSaved: string;
};

const BUSY = "rewind waits until the run ends (Esc stops it)";

/** A prompt's first line, shortened, in quotes. */
const quoted = (text: string) => {
	const line = text.trim().split("\n")[0] ?? "";
	return `“${line.length > 60 ? `${line.slice(0, 59)}…` : line}”`;
};

const ACTION_WORDS = { restored: "restore", removed: "remove", created: "make again", already: "already so" };

/** The preview of a rewind as the screen shows it: files to restore (+/−), conflicts, not restorable, bash changes. */
export function previewLines(report: RewindReport, cwd: string): PreviewLine[] {
	const name = (path: string) => shownPath(path, cwd);
	const lines: PreviewLine[] = [];
	const section = (head: string, items: PreviewLine[]) => {
		if (items.length > 0) lines.push({ text: head, tone: "head" }, ...items);
	};
	const files = report.restored.filter((f) => f.action !== "already");
	section(
		`Files to restore (${files.length})`,
		files.map((f) => {
			const counts = [f.insertions > 0 ? `+${f.insertions}` : "", f.deletions > 0 ? `−${f.deletions}` : ""];
			const shown = counts.filter(Boolean).join(" ");
			return {
				text: `  ${ACTION_WORDS[f.action].padEnd(11)}${name(f.path)}${shown ? `  ${shown}` : ""}`,
				tone: "plain",
			};
		}),
	);
	if (files.length === 0) lines.push({ text: "No file to restore.", tone: "muted" });
	const reasons = (list: { path: string; reason: string }[]) =>
		list.map((f): PreviewLine => ({ text: `  ${name(f.path)}: ${f.reason}`, tone: "warning" }));
	section(`Conflicts, left as they are (${report.skipped.length})`, reasons(report.skipped));
	section(`Not restorable (${report.notRestorable.length})`, reasons(report.notRestorable));
	section(
		`Changed by bash, not restored (${report.bashChanged.length})`,
		report.bashChanged.map((b) => ({
			text: `  ${name(b.path)}: changed by bash at ${b.entry}: not restored`,
			tone: "warning",
		})),
	);
	for (const c of report.cuts) lines.push({ text: `the scan around bash at ${c.entry} ${c.note}`, tone: "muted" });
	return lines;
}

/** Whether a report touches any file: one to write or remove, a conflict, one not restorable, a bash change. */
const touchesFiles = (report: RewindReport) =>
	report.restored.some((f) => f.action !== "already") ||
	report.skipped.length + report.notRestorable.length + report.bashChanged.length > 0;

/** The preview of "conversation only": the files changed after the place, which stay as they are. */
function leftAsIs(report: RewindReport, cwd: string): PreviewLine[] {
	const left = [...report.restored.filter((f) => f.action !== "already"), ...report.skipped, ...report.bashChanged];
	const names = [...new Set(left.map((f) => shownPath(f.path, cwd)))];
	const stay: PreviewLine = { text: "The files stay as they are now.", tone: "muted" };
	return names.length > 0 ? [stay, { text: `Changed after it, left so: ${names.join(", ")}`, tone: "plain" }] : [stay];
}

/** The rewind list's rows: the prompts on the current path, newest first, each rewinding to before it. */
function promptRows(session: Session): RewindRow[] {
	return promptsOnPath(session).map(({ text, edited, bashChanged, parentId }) => ({
		text,
		edited,
		bashChanged,
		place: { to: parentId, title: `to before ${quoted(text)}`, prompt: text },
	}));
}

/** What a rewind did, for the chat: what moved, then each file, then the figures. */
function outcome(report: RewindReport, head: string, cwd: string): string {
	if (report.mode === "conversation") return `${head}; the files stay as they are`;
	return [head, ...reportLines(report, cwd).map((line) => `  ${line}`), reportSummary(report)].join("\n");
}

/** The rewind intents of SessionIntents (openRewind, chooseMove, redo) over the conversation. */
export function rewindIntents(deps: RewindIntentDeps): Pick<SessionIntents, "openRewind" | "chooseMove" | "redo"> {
	const { conversation, store, input, notice, redraw } = deps;
	const writer = (): SessionWriter => {
		if (conversation.running) throw new Error(BUSY);
		const saved = conversation.session;
		if (!saved) throw new Error(deps.notSaved);
		return saved;
	};
	const cwd = () => conversation.session?.session.header.cwd ?? process.cwd();
	const moveLeaf = (to: string | null) => conversation.branch(to);
	const preview = (place: RewindPlace, mode: RewindMode): PreviewLine[] => {
		const report = previewRewind(writer().session, { mode: "files", to: place.to });
		return mode === "conversation" ? leftAsIs(report, cwd()) : previewLines(report, cwd());
	};
	const apply = (place: RewindPlace, mode: RewindMode) => {
		const saved = writer();
		const report = withRewindLock(saved.file, () => applyRewind(saved, { mode, to: place.to }, { moveLeaf }), NO_WAIT);
		redraw();
		const back =
			mode === "both" ? "the conversation and the files" : mode === "files" ? "the files" : "the conversation";
		const prompt = mode !== "files" && place.prompt !== undefined;
		if (prompt) input.restore(place.prompt ?? "");
		const then = prompt
			? " · its text is in the editor to edit and send · /redo takes it back"
			: " · /redo takes it back";
		notice(outcome(report, `rewound ${back} ${place.title}${then}`, cwd()), report.ok ? "info" : "warning");
	};
	const open = (rows: RewindRow[], place: RewindPlace | null) =>
		openRewindView(store, new RewindView(rows, { preview, apply }, place));
	return {
		openRewind: () => {
			let saved: SessionWriter;
			try {
				saved = writer();
			} catch (error) {
				return (error as Error).message;
			}
			const rows = promptRows(saved.session);
			if (rows.length === 0) return "nothing to rewind: send a message first";
			open(rows, null);
			return null;
		},
		chooseMove: (entryId) => {
			// moveLeaf says why a move waits for the run.
			if (conversation.running) return false;
			const { session } = writer();
			if (!touchesFiles(previewRewind(session, { mode: "files", to: entryId }))) return false;
			const node = session.node(entryId);
			const title = node?.type === "user" ? `to your prompt ${quoted(node.content)}` : `to the entry ${entryId}`;
			open([], { to: entryId, title });
			return true;
		},
		redo: () => {
			const saved = writer();
			const report = withRewindLock(saved.file, () => redoRewind(saved, { moveLeaf }), NO_WAIT);
			if ("none" in report) return notice(report.none, "warning");
			redraw();
			notice(outcome(report, "redone: back to where the last rewind started", cwd()), report.ok ? "info" : "warning");
		},
	};
}
