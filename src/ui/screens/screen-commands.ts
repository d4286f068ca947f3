import type { ToolOutcome } from "../../agent/events.js";
import { ChangesView, openChanges } from "../state/changes-view.js";
import { ModelPicker, openModelPicker } from "../state/model-picker.js";
import { type CommandContext, notice, switchModel } from "./commands.js";

// The commands that open a screen over the chat: /model with no name (the picker) and /changes.

/** How long the list waits for the servers' models before it says it is asking. */
const LISTING_NOTE_MS = 150;

/** `/model` alone: the model picker, gar's table at once and an OpenAI-compatible server's models when they come. */
export function pickModel(ctx: CommandContext): void {
	const { setup, store } = ctx;
	if (!setup.modelRows || !setup.listModels) {
		const { provider, model } = setup.conversation.model;
		notice(ctx, `the model is ${provider}/${model}; /model NAME switches (Tab lists the choices)`);
		return;
	}
	const rows = setup.modelRows;
	const picker = new ModelPicker(rows(), (row) => {
		switchModel(`${row.provider}/${row.id}`, ctx).catch((error) => notice(ctx, String(error), "error"));
	});
	openModelPicker(store, picker);
	let listed = false;
	setTimeout(() => {
		if (listed) return;
		picker.note = "asking the server for its models…";
		store.changed();
	}, LISTING_NOTE_MS).unref();
	void setup.listModels().then((note) => {
		listed = true;
		picker.setRows(rows());
		picker.note = note;
		store.changed();
	});
}

/**
 * /changes: the files the session's writes and edits changed (its file's entries, every branch; an unsaved
 * conversation's calls on screen), each diff computed when Enter opens it. Loaded when used: it reads files.
 */
export async function showChanges(ctx: CommandContext): Promise<void> {
	const changes = await import("../../session/changes.js");
	const writer = ctx.setup.conversation.session;
	const calls = writer
		? changes.endedCalls(writer.session.entries)
		: ctx.store.view.items.flatMap((item) =>
				item.kind === "tool" && item.content !== undefined
					? [
							{
								callId: item.callId,
								name: item.name,
								outcome: item.status as ToolOutcome,
								isError: item.isError === true,
								details: item.details ?? null,
							},
						]
					: [],
			);
	const files = changes.changedFiles(changes.changesOf(calls));
	if (files.length === 0) return notice(ctx, "no file was written or edited in this session yet");
	const cwd = writer?.session.header.cwd ?? ctx.cwd ?? process.cwd();
	const names = files.map((file) => changes.shownPath(file.path, cwd));
	const { files: count, added, removed } = changes.changeTotals(files);
	const title = `files changed ${count} · +${added} −${removed}`;
	const rows = files.map((file, i) => ({ name: names[i] ?? file.path, summary: changes.changeSummary(file) }));
	const diffOf = (i: number) => {
		const file = files[i];
		return file ? changes.fileDiff(file, names[i] ?? file.path) : { diff: "" };
	};
	openChanges(ctx.store, new ChangesView(title, rows, diffOf));
}
