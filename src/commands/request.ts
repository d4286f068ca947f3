import { UsageError } from "../errors.js";
import { findRequest, type RequestSelector, requestRecords, requestReport } from "../inspect/request-report.js";
import { loadSession, type RequestEntry, resolveSession } from "../session/index.js";
import { sanitizeForTerminal } from "../term/sanitize.js";
import { formatCost, formatDuration, formatUsage } from "../view/format.js";
import { originText, requestText } from "../view/request-view.js";
import type { SessionsContext } from "./sessions.js";

export type RequestOptions = { turn?: string; last?: boolean; json?: boolean; raw?: boolean };

/** The call the words name: a request id, `--turn N` (the nth call, -1 the last) or `--last`; none: list them all. */
function selector(id: string | undefined, options: RequestOptions): RequestSelector | undefined {
	const given = [id !== undefined, options.turn !== undefined, options.last === true].filter(Boolean).length;
	if (given > 1) throw new UsageError("give one of REQUEST_ID, --turn N and --last");
	if (options.json && options.raw)
		throw new UsageError("--json and --raw cannot go together: --raw prints the body alone");
	if (id !== undefined) return { id };
	if (options.last) return { nth: -1 };
	if (options.turn === undefined) return undefined;
	const nth = Number(options.turn);
	if (!Number.isInteger(nth) || nth === 0) {
		throw new UsageError(`--turn takes the number of a call (1 is the first, -1 the last), not "${options.turn}"`);
	}
	return { nth };
}

/** One row of the list of calls. */
function listRow(record: RequestEntry, index: number): string {
	const stop = record.errorKind ? `${record.stopReason} (${record.errorKind})` : record.stopReason;
	const cost = formatCost(record.costUsd, record.usage.estimated === true);
	const hash = record.bodySha256 ? "" : "  (no hash)";
	return `${String(index + 1).padStart(3)}  ${record.requestId.padEnd(24)}  ${record.model.padEnd(20)}  ${stop.padEnd(10)}  ${formatUsage(record.usage).padEnd(14)}  ${cost.padEnd(9)}  ${formatDuration(record.durationMs)}${hash}`;
}

/**
 * `gar request SESSION [REQUEST_ID | --turn N | --last] [--json | --raw]`: one model call of a session — a readable
 * summary, the report as JSON, or the exact JSON body that was sent (`--raw`) — rebuilt from the session's records
 * and tree and checked against the hash recorded when it was sent. Without a call named, the list of calls. A body
 * that differs from what was sent is printed with a warning on stderr; one that cannot be rebuilt is an error.
 */
export function requestCommand(
	ctx: SessionsContext & { warn: (text: string) => void },
	id: string,
	requestId: string | undefined,
	options: RequestOptions,
): number {
	const which = selector(requestId, options);
	const session = loadSession(resolveSession(ctx.baseDir, id, ctx.cwd).file);
	if (!which) {
		if (options.raw) throw new UsageError("--raw prints one call's body: name it (REQUEST_ID, --turn N or --last)");
		const records = requestRecords(session);
		if (options.json) {
			ctx.write(
				`${JSON.stringify(
					records.map(({ id: _i, parentId: _p, ts: _t, meta: _m, type: _y, ...r }) => r),
					null,
					2,
				)}\n`,
			);
			return 0;
		}
		const head = `session ${session.header.id} · ${records.length} model call${records.length === 1 ? "" : "s"} (gar request ${session.header.id} --turn N shows one)`;
		ctx.write(`${sanitizeForTerminal([head, ...records.map(listRow)].join("\n"))}\n`);
		return 0;
	}
	const report = requestReport({ session, record: findRequest(session, which) });
	const exact = report.origin.kind === "memory" || report.origin.kind === "rebuilt";
	if (options.raw) {
		if (report.body === undefined) {
			ctx.warn(`no body for ${report.requestId}: ${originText(report.origin)}`);
			return 1;
		}
		if (!exact) ctx.warn(`warning: ${originText(report.origin)}`);
		ctx.write(`${JSON.stringify(report.body)}\n`);
		return 0;
	}
	if (options.json) {
		ctx.write(`${JSON.stringify({ ...report, exact }, null, 2)}\n`);
		return 0;
	}
	ctx.write(sanitizeForTerminal(requestText(report)));
	return 0;
}
