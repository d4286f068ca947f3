import type { HookProcessResult } from "./process.js";
import type { HookDecision, HookEventName, HookRun, HookStatus } from "./types.js";

/** What one hook run means under the contract (README "Hooks"): its status and what it decided or said. */
export type Verdict = {
	status: HookStatus;
	decision?: HookDecision;
	reason?: string;
	message?: string;
	context?: string;
	updatedInput?: Record<string, unknown>;
};

/** Events whose plain stdout (exit 0, not JSON) is context for the model rather than text for the person. */
const STDOUT_IS_CONTEXT = new Set<HookEventName>(["UserPromptSubmit", "SessionStart"]);
/** Events an exit 2 (or `decision: "block"`) acts on. */
const BLOCKS = new Set<HookEventName>(["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"]);
/** Events whose `hookSpecificOutput.additionalContext` reaches the model. */
const TAKES_CONTEXT = new Set<HookEventName>(["PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart"]);

const trimmed = (text: string) => text.replace(/\s+$/, "").replace(/^\s*\n/, "");

/** A failure in words: how the process ended, then what it said on stderr (or stdout). */
function failure(proc: HookProcessResult, timeoutMs: number): Verdict {
	const said = trimmed(proc.stderr) || trimmed(proc.stdout);
	const tail = said ? `: ${said}` : "";
	if (proc.startError !== undefined) return { status: "not_started", message: `could not start: ${proc.startError}` };
	if (proc.aborted) return { status: "aborted", message: `stopped with the run; its process group was killed${tail}` };
	if (proc.timedOut) {
		return {
			status: "timeout",
			message: `timed out after ${timeoutMs / 1000} s; its process group was killed (raise its timeout)${tail}`,
		};
	}
	if (proc.signal) return { status: "error", message: `killed by ${proc.signal}${tail}` };
	const code = proc.exitCode;
	if (code === 127) return { status: "error", message: `exit 127, command not found${tail}` };
	if (code === 126) return { status: "error", message: `exit 126, not executable${tail}` };
	return { status: "error", message: `exit ${code}${tail}` };
}

/** Interprets one finished hook process for `event` (pure): exit code first, then stdout as JSON or text. */
export function interpret(event: HookEventName, proc: HookProcessResult, timeoutMs: number): Verdict {
	if (proc.startError !== undefined || proc.aborted || proc.timedOut || proc.signal || proc.exitCode === null) {
		return failure(proc, timeoutMs);
	}
	if (proc.exitCode === 2) {
		const reason = trimmed(proc.stderr);
		if (!BLOCKS.has(event)) {
			return { status: "error", message: `exit 2, but a ${event} hook cannot block${reason ? `: ${reason}` : ""}` };
		}
		const why = reason || "(the hook gave no reason on stderr)";
		return { status: "ok", decision: event === "PreToolUse" ? "deny" : "block", reason: why };
	}
	if (proc.exitCode !== 0) return failure(proc, timeoutMs);
	const stdout = trimmed(proc.stdout);
	if (stdout === "") return { status: "ok" };
	if (proc.truncated) {
		return { status: "ok", message: `its output was cut at ${proc.stdout.length} bytes (not read as JSON)` };
	}
	if (stdout.trimStart().startsWith("{")) {
		try {
			const parsed: unknown = JSON.parse(stdout);
			if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
				return fromJson(event, parsed as Record<string, unknown>);
			}
		} catch (error) {
			return { status: "ok", ...asText(event, stdout, `not valid JSON (${(error as Error).message}), read as text`) };
		}
	}
	return { status: "ok", ...asText(event, stdout) };
}

/** Plain stdout: context for UserPromptSubmit and SessionStart, shown to the person for the others. */
function asText(event: HookEventName, text: string, note?: string): Pick<Verdict, "context" | "message"> {
	if (STDOUT_IS_CONTEXT.has(event)) return { context: text, ...(note ? { message: note } : {}) };
	return { message: note ? `${note}: ${text}` : text };
}

const str = (value: unknown) => (typeof value === "string" ? value : undefined);

/** The JSON output's fields; a field of the wrong kind is named in `message`, never silently dropped. */
function fromJson(event: HookEventName, json: Record<string, unknown>): Verdict {
	const notes: string[] = [];
	const verdict: Verdict = { status: "ok" };
	const shown = str(json.systemMessage);
	const specific = json.hookSpecificOutput;
	const output =
		specific !== null && typeof specific === "object" && !Array.isArray(specific)
			? (specific as Record<string, unknown>)
			: {};
	if (specific !== undefined && output !== specific) notes.push("hookSpecificOutput is not an object; ignored");
	if (json.decision === "block" && BLOCKS.has(event)) {
		verdict.decision = event === "PreToolUse" ? "deny" : "block";
		const reason = str(json.reason);
		if (reason) verdict.reason = reason;
		else if (event === "Stop") {
			delete verdict.decision;
			notes.push('decision "block" without a reason; a Stop hook must say why the run goes on');
		}
	} else if (json.decision === "approve" && event === "PreToolUse") {
		verdict.decision = "allow";
	} else if (json.decision !== undefined) notes.push(`decision ${JSON.stringify(json.decision)} ignored`);
	if (event === "PreToolUse") preToolFields(output, verdict, notes);
	const context = output.additionalContext;
	if (typeof context === "string" && context.trim() !== "" && TAKES_CONTEXT.has(event)) verdict.context = context;
	else if (context !== undefined && typeof context !== "string")
		notes.push("additionalContext is not a string; ignored");
	if (json.continue === false) {
		verdict.decision = "stop";
		verdict.reason = str(json.stopReason) || `the ${event} hook stopped the run`;
	}
	const message = [shown, ...notes].filter((text): text is string => !!text).join("; ");
	if (message) verdict.message = message;
	return verdict;
}

/** permissionDecision, its reason and updatedInput. */
function preToolFields(output: Record<string, unknown>, verdict: Verdict, notes: string[]): void {
	const decision = output.permissionDecision;
	if (decision === "allow" || decision === "deny" || decision === "ask") verdict.decision = decision;
	else if (decision !== undefined)
		notes.push(`permissionDecision ${JSON.stringify(decision)} is not allow, deny or ask; ignored`);
	const reason = str(output.permissionDecisionReason);
	if (reason && verdict.decision !== undefined && decision !== undefined) verdict.reason = reason;
	const input = output.updatedInput;
	if (input !== null && typeof input === "object" && !Array.isArray(input)) {
		verdict.updatedInput = input as Record<string, unknown>;
	} else if (input !== undefined) notes.push("updatedInput is not an object; ignored");
}

/** Texts in events and records stay small whatever a hook prints: the head, and how much was left out. */
export function clipText(text: string, max = 2000): string {
	if (text.length <= max) return text;
	return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** The `hook` event's fields for one run. */
export function hookRun(
	hook: { event: HookEventName; command: string; file: string },
	verdict: Verdict,
	proc: Pick<HookProcessResult, "exitCode" | "durationMs">,
	call?: { id: string; name: string },
): HookRun {
	const { status, decision, reason, message, context, updatedInput } = verdict;
	return {
		event: hook.event,
		name: hookName(hook.command),
		command: hook.command,
		source: hook.file,
		...(call ? { callId: call.id, tool: call.name } : {}),
		status,
		exitCode: proc.exitCode,
		durationMs: proc.durationMs,
		...(decision ? { decision } : {}),
		...(reason ? { reason: clipText(reason) } : {}),
		...(message ? { message: clipText(message) } : {}),
		...(context ? { context: clipText(context) } : {}),
		...(updatedInput ? { updatedInput: true as const } : {}),
	};
}

/**
 * A short name for a hook: in its first simple command (up to `;`, `&`, `|`, `<`, `>` outside quotes), the file name
 * of the last word that looks like a script path (`guard.sh` for `python3 ~/.hooks/guard.sh --strict`), else its
 * first word. A quoted text with spaces in it is never a path.
 */
export function hookName(command: string): string {
	const tokens = command.match(/"[^"]*"|'[^']*'|[^\s;&|<>"']+|[;&|<>]+/g) ?? [];
	const end = tokens.findIndex((token) => /^[;&|<>]/.test(token));
	const words = (end < 0 ? tokens : tokens.slice(0, end)).map((token) => token.replace(/^(["'])(.*)\1$/, "$2"));
	const path = [...words]
		.reverse()
		.find((word) => !/\s/.test(word) && (word.includes("/") || /\.[A-Za-z][A-Za-z0-9]{0,3}$/.test(word)));
	const word = path ?? words[0] ?? command.trim();
	return word.slice(word.lastIndexOf("/") + 1) || word;
}
