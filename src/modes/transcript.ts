import type { AgentEvent } from "../agent/events.js";

/** One line describing a tool call's arguments: the path or command, not the whole JSON. */
export function describeCall(name: string, args: Record<string, unknown>): string {
	const main = args.command ?? args.path;
	if (typeof main === "string") return `${name} ${main.length > 100 ? `${main.slice(0, 97)}...` : main}`;
	const json = JSON.stringify(args);
	return `${name} ${json.length > 100 ? `${json.slice(0, 97)}...` : json}`;
}

function firstLine(text: string): string {
	const line = text.split("\n", 1)[0] ?? "";
	return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/**
 * Renders agent events as a plain-text transcript for a person: prompts, the streamed answer, one line per tool
 * call and its outcome, errors. O(event) per event: deltas are written as they come.
 */
export function createTranscript(write: (text: string) => void): (event: AgentEvent) => void {
	let atLineStart = true;
	const out = (text: string) => {
		if (!text) return;
		write(text);
		atLineStart = text.endsWith("\n");
	};
	const line = (text: string) => out(`${atLineStart ? "" : "\n"}${text}\n`);
	return (event) => {
		switch (event.type) {
			case "user_message":
				line(`\n> ${event.message.content.replaceAll("\n", "\n  ")}\n`);
				break;
			case "text_delta":
				out(event.delta);
				break;
			case "tool_start":
				line(`· ${describeCall(event.name, event.args)}`);
				break;
			case "tool_end":
				line(`  ${event.result.isError ? "✗" : "✓"} ${firstLine(event.result.content)}`);
				break;
			case "retry":
				line(`[retry ${event.attempt}: ${event.reason}]`);
				break;
			case "message_end":
				if (event.message.stopReason === "error" || event.message.stopReason === "aborted") {
					line(`[${event.message.stopReason}: ${event.message.error ?? "no details"}]`);
				} else if (!atLineStart) out("\n");
				break;
			case "agent_end": {
				const cost = event.costUsd === null ? "cost unknown" : `$${event.costUsd.toFixed(4)}`;
				const { input, output, cacheRead } = event.usage;
				line(`[${event.stopReason} · ${event.turns} turns · ${input}↑ ${output}↓ ${cacheRead} cached · ${cost}]`);
				break;
			}
			default:
				break;
		}
	};
}
