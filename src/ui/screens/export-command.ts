import { resolve } from "node:path";
import type { CommandContext } from "./commands.js";

const FORCE = /(^|\s)--force(?=\s|$)/;

/**
 * `/export [FILE] [--force]`: the conversation's current path as Markdown or HTML (by FILE's extension; default
 * `gar-ID.md` in the session's folder). A file that exists is not overwritten: the command comes back into the input
 * with `--force`, so Enter overwrites it and editing the name keeps it. The exporter loads only when used.
 */
export async function exportConversation(arg: string, ctx: CommandContext): Promise<void> {
	const notice = (message: string, level: "info" | "warning" | "error" = "info") =>
		ctx.setup.channel.emit({ type: "notice", level, message });
	const writer = ctx.setup.conversation.session;
	if (!writer) return notice("this conversation is not saved, so there is nothing to export", "warning");
	const leaf = writer.leafId;
	if (leaf === null) return notice("there is nothing to export yet: send a message first", "warning");
	const force = FORCE.test(arg);
	const name = arg.replace(FORCE, " ").trim() || `gar-${writer.session.header.id}.md`;
	const path = resolve(writer.session.header.cwd, name);
	const [{ exportSession, formatOfPath }, { writeExport }] = await Promise.all([
		import("../../output/export/export-session.js"),
		import("../../output/export/write.js"),
	]);
	const format = formatOfPath(path);
	const result = writeExport(path, exportSession(writer.session, format, leaf), force);
	if (result.kind === "failed") return notice(result.error, "error");
	if (result.kind === "exists") {
		ctx.input.restore(`/export ${name} --force`);
		return notice(
			`${path} exists: Enter overwrites it (the command is back in the input with --force); change the name to keep it`,
			"warning",
		);
	}
	notice(`exported the conversation up to ${leaf} to ${path} (${format === "html" ? "HTML" : "Markdown"})`);
}
