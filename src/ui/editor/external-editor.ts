import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type ExternalEditorOptions = {
	/** The editor command line ($VISUAL, $EDITOR, else vi); run by the shell with the file as its argument. */
	editor?: string;
	env?: NodeJS.ProcessEnv;
	/** Before the editor starts and after it ends: hand the terminal over and take it back. */
	before?: () => void;
	after?: () => void;
};

/** The editor command gar runs for Ctrl+G. */
export function editorCommand(env: NodeJS.ProcessEnv): string {
	return env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";
}

/**
 * Ctrl+G: writes `text` to a temporary file, runs the person's editor on it in the terminal, and returns what the
 * file holds afterwards (one trailing newline, which editors add, removed). Returns an error text instead when the
 * editor could not run or exited with a failure; the temporary file is always removed. Blocks until the editor exits.
 */
export function editExternally(
	text: string,
	options: ExternalEditorOptions = {},
): { text: string } | { error: string } {
	const env = options.env ?? process.env;
	const editor = options.editor ?? editorCommand(env);
	const dir = mkdtempSync(join(tmpdir(), "gar-edit-"));
	const file = join(dir, "message.md");
	try {
		writeFileSync(file, text);
		options.before?.();
		let result: ReturnType<typeof spawnSync>;
		try {
			result = spawnSync("/bin/sh", ["-c", `${editor} "$1"`, "gar-editor", file], { stdio: "inherit", env });
		} finally {
			options.after?.();
		}
		if (result.error) return { error: `could not start the editor (${editor}): ${result.error.message}` };
		if (result.status !== 0) return { error: `the editor (${editor}) exited with ${result.status ?? result.signal}` };
		return { text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
