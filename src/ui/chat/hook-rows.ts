import type { HookRun } from "../../agent/events.js";
import { hookFailed, hookLine } from "../../view/hook-line.js";
import type { Theme } from "../theme/theme.js";
import { clean, prefixRows, type Span, wrapSpans } from "./lines.js";

/**
 * One hook run's line (view/hook-line.ts), wrapped under its "↪" and indented by `indent`: red when the hook failed,
 * in the warning colour when it blocked or stopped something, muted otherwise.
 */
export function hookRows(run: HookRun, width: number, theme: Theme, indent = ""): Span[][] {
	const stopped = run.decision === "deny" || run.decision === "block" || run.decision === "stop";
	const color = hookFailed(run) ? theme.error : stopped ? theme.warning : theme.muted;
	const lead = `${indent}↪ `;
	const rows = wrapSpans([{ text: clean(hookLine(run)), color }], Math.max(1, width - lead.length));
	return prefixRows(rows, [{ text: lead, color }], [{ text: " ".repeat(lead.length) }]);
}
