import type { Session } from "../../session/session.js";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import { exportDocument } from "./document.js";
import { renderHtml } from "./html.js";
import { renderMarkdown } from "./markdown.js";

/** The two formats a session exports to. */
export type ExportFormat = "md" | "html";

/**
 * The path of `session` up to `leafId` (default: its current leaf) as a Markdown or HTML document. Control and bidi
 * characters from the session show as the app shows them (`␛`, `^G`, `⟨U+202E⟩`), so the document is also safe to
 * `cat` in a terminal. O(entries).
 */
export function exportSession(session: Session, format: ExportFormat, leafId = session.leafId): string {
	const doc = exportDocument(session, leafId);
	return sanitizeForTerminal(format === "html" ? renderHtml(doc) : renderMarkdown(doc));
}

/** The format a file name asks for: .html or .htm is HTML, anything else Markdown. */
export function formatOfPath(path: string): ExportFormat {
	return /\.html?$/i.test(path) ? "html" : "md";
}
