import { resolveToolPath } from "../tools/paths.js";

/**
 * A tool's arguments as a hook reads them: gar's own, plus `file_path` (absolute) wherever gar says `path`, so a
 * script written for Claude Code's input (`.tool_input.file_path`, `.tool_input.command`) works unchanged.
 */
export function toolInput(args: Record<string, unknown>, cwd: string): Record<string, unknown> {
	if (typeof args.path !== "string" || "file_path" in args) return args;
	return { ...args, file_path: resolveToolPath(cwd, args.path).abs };
}

/**
 * The arguments a hook's `updatedInput` asks for, in gar's names: a changed `file_path` becomes `path` (unless the
 * hook changed `path` itself), and `file_path` is dropped. Validated by the caller against the tool's schema.
 */
export function fromToolInput(
	original: Record<string, unknown>,
	updated: Record<string, unknown>,
	cwd: string,
): Record<string, unknown> {
	const { file_path: filePath, ...rest } = updated;
	if ("file_path" in original || typeof filePath !== "string") return "file_path" in original ? updated : rest;
	const shown = toolInput(original, cwd).file_path;
	const pathChanged = rest.path !== original.path;
	if (filePath !== shown && !pathChanged) rest.path = filePath;
	return rest;
}
