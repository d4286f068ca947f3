import type { ConfigFlags } from "../config/index.js";
import { setupRun } from "../modes/setup.js";
import { roundCost } from "../output/print-output.js";
import { sanitizeForTerminal } from "../term/sanitize.js";
import { formatTokens } from "../view/format.js";

export type CompactOptions = ConfigFlags & { cwd: string; focus?: string; json?: boolean };

export type CompactIo = { stdout: (text: string) => void; stderr: (text: string) => void; env: NodeJS.ProcessEnv };

/**
 * `gar compact SESSION [--focus TEXT]`: summarizes the older part of a session's current path with its model and
 * saves a compaction node, so the next run sends the summary and the recent turns. The file keeps everything.
 * Returns the exit code: 0 compacted, 1 the compaction failed, there was nothing worth compacting, or the context
 * would not have shrunk (the session is then unchanged).
 */
export async function compactCommand(target: string, options: CompactOptions, io: CompactIo): Promise<number> {
	const { focus, json, ...flags } = options;
	const setup = await setupRun({ ...flags, session: target }, io.env);
	const { conversation } = setup;
	const say = (text: string) => io.stderr(`gar: ${sanitizeForTerminal(text)}\n`);
	for (const warning of setup.warnings) say(`warning: ${warning}`);
	let sessionError: string | undefined;
	setup.channel.subscribe((event) => {
		if (event.type === "session_error")
			sessionError ??= `could not save the compaction to ${event.file}: ${event.error}`;
		else if (event.type === "notice" && event.level !== "info") say(`${event.level}: ${event.message}`);
	});
	try {
		const result = await conversation.compact(focus);
		const ok = result.ok && sessionError === undefined;
		const error = sessionError ?? result.error;
		const sessionId = conversation.session?.session.header.id ?? null;
		if (json) {
			const out = { ...result, ok, costUsd: roundCost(result.costUsd), sessionId, ...(error ? { error } : {}) };
			io.stdout(`${JSON.stringify(out)}\n`);
		} else if (ok) {
			const sizes = `${formatTokens(result.tokensBefore)} → ${formatTokens(result.tokensAfter)} tokens`;
			io.stdout(`compacted ${sessionId ?? "the session"}: ${sizes}\n`);
		}
		if (!ok && !json) say(`compaction failed: ${error ?? "unknown error"}`);
		return ok ? 0 : 1;
	} finally {
		await conversation.close();
	}
}
