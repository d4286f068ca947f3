import { describe, expect, it } from "vitest";
import { NOT_RUN_RESULT, normalizeHistory } from "../src/llm/transform.js";
import { type AssistantMessage, EMPTY_USAGE, type Message, type ToolResultMessage } from "../src/llm/types.js";

function assistant(content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "tool_use") {
	return { role: "assistant", content, provider: "p", model: "m", usage: EMPTY_USAGE, stopReason } as AssistantMessage;
}
const call = (id: string, name = "bash") => ({ type: "tool_call" as const, id, name, arguments: {} });
const result = (callId: string, content = "ok"): ToolResultMessage => ({
	role: "tool_result",
	callId,
	name: "bash",
	content,
	isError: false,
});
const notRun = (callId: string, name = "bash"): ToolResultMessage => ({
	role: "tool_result",
	callId,
	name,
	content: NOT_RUN_RESULT,
	isError: true,
});
const user = (content: string): Message => ({ role: "user", content });

describe("normalizeHistory", () => {
	it("leaves a well-formed history as it is", () => {
		const history: Message[] = [
			user("go"),
			assistant([call("a")]),
			result("a"),
			assistant([{ type: "text", text: "done" }], "stop"),
		];
		expect(normalizeHistory(history)).toEqual(history);
	});

	it("answers dangling tool calls of an aborted reply right after it", () => {
		const aborted = assistant([{ type: "text", text: "Let me" }, call("a", "read"), call("b")], "aborted");
		const out = normalizeHistory([user("go"), aborted, result("a"), user("stop that")]);
		expect(out).toEqual([user("go"), aborted, result("a"), notRun("b"), user("stop that")]);
	});

	it("answers every call of a reply cut off at the end of the history", () => {
		const cut = assistant([call("x"), call("y", "edit")], "error");
		expect(normalizeHistory([user("go"), cut])).toEqual([user("go"), cut, notRun("x"), notRun("y", "edit")]);
	});

	it("moves a result recorded after a user message up to its call", () => {
		const reply = assistant([call("a"), call("b")]);
		const out = normalizeHistory([reply, result("b", "B"), user("also this"), result("a", "A")]);
		expect(out).toEqual([reply, result("a", "A"), result("b", "B"), user("also this")]);
	});

	it("drops empty assistant messages and orphan results", () => {
		const out = normalizeHistory([user("go"), assistant([], "error"), result("ghost"), user("again")]);
		expect(out).toEqual([user("go"), user("again")]);
	});

	it("does not mutate its input", () => {
		const history: Message[] = [assistant([call("a")], "aborted")];
		const copy = structuredClone(history);
		normalizeHistory(history);
		expect(history).toEqual(copy);
	});
});
