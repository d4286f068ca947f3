import { contextReport, sessionContextInput } from "../inspect/context-report.js";
import { loadSession, resolveSession } from "../session/index.js";
import { sanitizeForTerminal } from "../term/sanitize.js";
import { contextLines } from "../view/context-view.js";
import type { SessionsContext } from "./sessions.js";

/**
 * `gar context SESSION [--json]`: what the session's next request would hold, by kind, with the free space of the
 * window, the 10 largest items with their entry ids, and a warning for a context file over 20 % of the request.
 */
export function contextCommand(ctx: SessionsContext, id: string, options: { json?: boolean }): number {
	const session = loadSession(resolveSession(ctx.baseDir, id, ctx.cwd).file);
	const report = contextReport(sessionContextInput(session));
	if (options.json) ctx.write(`${JSON.stringify({ sessionId: session.header.id, ...report }, null, 2)}\n`);
	else ctx.write(`${sanitizeForTerminal(contextLines(report).join("\n"))}\n`);
	return 0;
}
