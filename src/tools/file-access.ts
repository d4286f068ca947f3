import { isExactText } from "./file-change.js";

/**
 * Where read, write and edit take and put a file's text when an editor holds the files (ACP's `fs/read_text_file` and
 * `fs/write_text_file`): the editor's buffer may have unsaved changes the model must see, and a change made through
 * the editor shows in it at once. gar still looks at the disk itself for everything else: whether the path is there,
 * is a folder or a device, is binary or too large (those never go through the editor).
 */
export type FileAccess = {
	/** The file's text as the editor has it (saved or not); throws when it cannot give it. */
	readText?: (abs: string) => Promise<string>;
	/** Writes the text through the editor, which creates the file when it is missing; throws when it cannot. */
	writeText?: (abs: string, text: string) => Promise<void>;
};

/**
 * The bytes a change applies to: the editor's text of the file when it offers one and the file on disk is text (a
 * binary or non-UTF-8 file cannot be an editor's text), else the bytes on disk. An editor that fails to answer leaves
 * the disk's bytes: the change then applies to what is saved.
 */
export async function currentBytes(abs: string, disk: Buffer, files: FileAccess | undefined): Promise<Buffer> {
	if (!files?.readText || !isExactText(disk)) return disk;
	try {
		return Buffer.from(await files.readText(abs), "utf8");
	} catch {
		return disk;
	}
}
