// The lines `gar -p --input-format stream-json` reads: gar's own commands, and Claude Code's user message shape so
// that drivers written for `claude -p --input-format stream-json` work unchanged. Pure: a line in, a command or the
// reason it is refused out.

/** One command of the input. */
export type StreamCommand =
	| { type: "prompt"; text: string }
	| { type: "steer"; text: string }
	| { type: "follow_up"; text: string }
	| { type: "abort" }
	| { type: "set_model"; model: string }
	| { type: "compact"; focus?: string };

const SHAPES =
	'{"type":"prompt","text":"…"}, steer, follow_up (with text), {"type":"abort"}, {"type":"set_model","model":"…"}, {"type":"compact"} or {"type":"user","message":{"role":"user","content":"…"}}';

/** The command a line asks for, or why it is refused (in words that say what to send instead). */
export function parseStreamCommand(line: string): StreamCommand | { error: string } {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		return {
			error: `not JSON (${error instanceof Error ? error.message : String(error)}); send one JSON object a line`,
		};
	}
	if (value === null || typeof value !== "object" || Array.isArray(value)) {
		return { error: `expected a JSON object such as ${SHAPES}` };
	}
	const object = value as Record<string, unknown>;
	const type = object.type;
	switch (type) {
		case "prompt":
		case "steer":
		case "follow_up": {
			const text = object.text;
			if (typeof text !== "string" || text.trim() === "") return { error: `${type} needs "text", a non-empty string` };
			return { type, text };
		}
		case "abort":
			return { type };
		case "set_model": {
			const model = object.model;
			if (typeof model !== "string" || model.trim() === "") {
				return { error: 'set_model needs "model", e.g. "claude-sonnet-4-5" or "openai/gpt-5"' };
			}
			return { type, model: model.trim() };
		}
		case "compact": {
			const focus = object.focus;
			if (focus !== undefined && typeof focus !== "string") return { error: 'compact takes "focus" as a string' };
			return focus?.trim() ? { type, focus: focus.trim() } : { type };
		}
		case "user":
			return claudeUserMessage(object.message);
		default:
			return { error: `unknown type ${JSON.stringify(type) ?? "(none)"}; expected ${SHAPES}` };
	}
}

/** Claude Code's `{"type":"user","message":{"role":"user","content": string | blocks}}`: its text is the prompt. */
function claudeUserMessage(message: unknown): StreamCommand | { error: string } {
	const content = (message as { content?: unknown } | null | undefined)?.content;
	if (typeof content === "string") {
		return content.trim() ? { type: "prompt", text: content } : { error: "the user message is empty" };
	}
	if (!Array.isArray(content)) return { error: 'a "user" line needs message.content, a string or content blocks' };
	const texts: string[] = [];
	for (const block of content) {
		const kind = (block as { type?: unknown } | null)?.type;
		const text = (block as { text?: unknown } | null)?.text;
		if (kind === "text" && typeof text === "string") texts.push(text);
		else return { error: `only text content blocks are taken (got ${JSON.stringify(kind) ?? "a block without type"})` };
	}
	const text = texts.join("\n\n");
	return text.trim() ? { type: "prompt", text } : { error: "the user message has no text" };
}
