import { basename } from "node:path";
import { type Catalog, infoOf, readCatalog, readPrompts } from "../session/ops.js";
import { idFromFileName } from "../session/paths.js";
import { readLastExchange } from "../session/preview.js";
import { moveToTrash } from "../session/trash.js";
import { SessionWriter } from "../session/writer.js";
import { FuzzyRows } from "../text/fuzzy.js";
import { sessionTitle } from "../view/session-name.js";
import type { PickerHit, PickerRow, PickerSource } from "./state/picker.js";

/** What the picker's source needs of the app: where sessions are, and what opening one and going back do. */
export type PickerSetup = {
	/** The sessions' base folder (`session.dir`) and the trash folder. */
	baseDir: string;
	trashDir: string;
	/** This project's directory (the default scope). */
	cwd: string;
	/** The session open in the app now, if any: never moved to the trash from here; renamed through its writer. */
	current: () => SessionWriter | null;
	open: (row: PickerRow) => Promise<string | null>;
	back: () => void;
};

/** Why a file cannot be listed, in a few words (the row is one line; the path is beside it). */
function shortReason(code: string, reason: string, file: string): string {
	if (code === "newer_format") {
		const format = /\(format (\d+)\)/.exec(reason)?.[1] ?? "?";
		return `written by a newer gar (format ${format}): upgrade gar to open it`;
	}
	if (code === "bad_header") {
		return reason.includes("is empty") ? "empty: not a gar session" : "not a gar session: line 1 is no session header";
	}
	return `cannot be read: ${reason.replaceAll(file, "").trim()}`;
}

/**
 * The rows with each fork right under the session it was copied from (newest first among siblings), drawn in one
 * step further; a fork whose origin is not listed stays in its place.
 */
export function grouped(rows: readonly PickerRow[]): PickerHit[] {
	const listed = new Set(rows.map((row) => row.id));
	const forks = new Map<string, PickerRow[]>();
	for (const row of rows) {
		if (row.forkOf === undefined || !listed.has(row.forkOf) || row.forkOf === row.id) continue;
		forks.set(row.forkOf, [...(forks.get(row.forkOf) ?? []), row]);
	}
	const out: PickerHit[] = [];
	const seen = new Set<string>();
	const add = (row: PickerRow, depth: number) => {
		if (seen.has(row.file)) return;
		seen.add(row.file);
		out.push({ row, matched: "", ...(depth > 0 ? { depth } : {}) });
		for (const fork of forks.get(row.id) ?? []) add(fork, depth + 1);
	};
	for (const row of rows) {
		if (row.forkOf === undefined || !listed.has(row.forkOf) || row.forkOf === row.id) add(row, 0);
	}
	// A cycle of forks (hand-made files) has no top: its rows still show.
	for (const row of rows) add(row, 0);
	return out;
}

/** The rows of a listing: sessions newest first, then the files that cannot be listed (each saying why). */
function rowsOf(catalog: Catalog): { rows: PickerRow[]; texts: Map<string, string[]> } {
	// The name (or first prompt) and the labels; the prompts are added when a search first needs them.
	const texts = new Map<string, string[]>();
	const rows: PickerRow[] = catalog.sessions.map(({ file, mtimeMs, summary }) => {
		const info = infoOf(file, mtimeMs, summary);
		const title = sessionTitle(info.name, info.firstPrompt) ?? "";
		texts.set(file, [title, ...info.labels]);
		return {
			file,
			id: info.id,
			title,
			named: info.name !== undefined,
			latestPrompt: info.latestPrompt ?? "",
			modifiedMs: mtimeMs,
			entries: info.entries,
			branches: info.branches,
			model: info.model ?? "",
			costUsd: info.costUsd,
			cwd: info.cwd,
			labels: info.labels,
			...(info.forkOf ? { forkOf: info.forkOf.session } : {}),
			damaged: info.damaged,
		};
	});
	for (const { file, mtimeMs, code, reason } of catalog.unreadable) {
		rows.push({
			file,
			id: idFromFileName(file) ?? basename(file),
			title: "",
			named: false,
			latestPrompt: "",
			modifiedMs: mtimeMs,
			entries: 0,
			branches: 0,
			model: "",
			costUsd: null,
			cwd: "",
			labels: [],
			damaged: 0,
			problem: shortReason(code, reason, file),
		});
	}
	return { rows, texts };
}

/**
 * The resume picker's source over the session store: listings through each project's index, the fuzzy filter over
 * name, labels and prompts (uFuzzy), the last exchange read from the latest prompt on, rename by appending a name, and
 * delete by moving the file to the trash.
 */
export function pickerSource(setup: PickerSetup): PickerSource {
	let texts = new Map<string, string[]>();
	let prompts: Map<string, string[]> | undefined;
	let scope: string | undefined;
	let offsets = new Map<string, number | undefined>();
	let leaves = new Map<string, string | null>();
	const matchers = new WeakMap<readonly PickerRow[], FuzzyRows<PickerRow>>();
	const isCurrent = (row: PickerRow) => setup.current()?.file === row.file;
	/** The fuzzy matcher of a listing's rows: their names, labels and prompts (read from the index when first asked). */
	const matcherOf = (rows: readonly PickerRow[]): FuzzyRows<PickerRow> => {
		let matcher = matchers.get(rows);
		if (!matcher) {
			prompts ??= readPrompts(setup.baseDir, scope);
			const searched = prompts;
			matcher = new FuzzyRows(rows, (row) => [...(texts.get(row.file) ?? [row.id]), ...(searched.get(row.file) ?? [])]);
			matchers.set(rows, matcher);
		}
		return matcher;
	};
	return {
		list(all) {
			scope = all ? undefined : setup.cwd;
			const catalog = readCatalog(setup.baseDir, scope);
			const listed = rowsOf(catalog);
			texts = listed.texts;
			prompts = undefined;
			offsets = new Map(catalog.sessions.map((s) => [s.file, s.summary.latestUserOffset]));
			leaves = new Map(catalog.sessions.map((s) => [s.file, s.summary.leaf ?? null]));
			return listed.rows;
		},
		filter(rows, query): PickerHit[] {
			if (query.trim() === "") return grouped(rows);
			return matcherOf(rows)
				.find(query)
				.map(({ row, text }) => ({ row, matched: text }));
		},
		prepare: (rows) => matcherOf(rows).prepare(),
		preview: (row) => readLastExchange(row.file, offsets.get(row.file)),
		rename(row, name) {
			const current = setup.current();
			// Another session is named without loading it: one line appended, however long the file.
			if (current && isCurrent(row)) current.setName(name);
			else SessionWriter.appendName(row.file, name, leaves.get(row.file) ?? null);
			return `named ${row.id}: ${name}`;
		},
		trash(row) {
			if (isCurrent(row)) throw new Error("this is the session open here: it cannot go to the trash while it is open");
			moveToTrash(row.file, setup.trashDir);
			return `moved ${row.id} to the trash (${setup.trashDir}); gar sessions restore ${row.id} brings it back`;
		},
		open: setup.open,
		back: setup.back,
	};
}
