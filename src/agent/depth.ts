import type { AssistantMessage } from "../llm/types.js";

/** How deep a tool call's arguments may nest: far beyond any real schema, far below a stack overflow. */
export const MAX_ARGUMENT_DEPTH = 64;

/**
 * Whether `value` nests objects/arrays deeper than `limit` (the value itself is level 1). Iterative and stops at the
 * limit, so a hostile value cannot overflow the stack here, nor later in stringify, clone or a recursive walk.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
	if (typeof value !== "object" || value === null) return false;
	// Two parallel stacks: no allocation per node (this runs on every session line loaded).
	const values: object[] = [value];
	const depths: number[] = [1];
	while (values.length > 0) {
		const node = values.pop() as object;
		const depth = depths.pop() as number;
		if (depth > limit) return true;
		for (const key in node) {
			const child = (node as Record<string, unknown>)[key];
			if (typeof child === "object" && child !== null) {
				values.push(child);
				depths.push(depth + 1);
			}
		}
	}
	return false;
}

/** What the model's own call reads as, and what the tool runner quotes back, when its arguments were refused. */
export const TOO_DEEP = `(arguments nested deeper than ${MAX_ARGUMENT_DEPTH} levels were refused)`;

/**
 * A reply whose tool-call arguments nest too deep gets them replaced, as the arguments of a call that did not parse
 * (`{}` plus `rawArguments`): the runner refuses the call, and nothing deep reaches the history or the session.
 */
export function boundToolArguments(message: AssistantMessage): AssistantMessage {
	if (!message.content.some((b) => b.type === "tool_call" && nestsDeeperThan(b.arguments, MAX_ARGUMENT_DEPTH))) {
		return message;
	}
	const content = message.content.map((block) =>
		block.type === "tool_call" && nestsDeeperThan(block.arguments, MAX_ARGUMENT_DEPTH)
			? { ...block, arguments: {}, rawArguments: TOO_DEEP }
			: block,
	);
	return { ...message, content };
}
