// Error classification where the provider error is in hand: the table of statuses, error types and wordings.
import { describe, expect, it } from "vitest";
import { classifyError, describeError, isRetryable, safeUrl } from "../src/llm/errors.js";
import type { ErrorKind } from "../src/llm/types.js";

/** An error shaped like the SDKs' APIError: status plus the parsed body. */
const api = (status: number | undefined, body: unknown) => ({ status, error: body, message: `${status}` });
const anthropicBody = (type: string, message: string) => ({ type: "error", error: { type, message } });
const openaiBody = (message: string, type: string, code: string | null = null) => ({
	message,
	type,
	param: null,
	code,
});
const network = (code: string) =>
	Object.assign(new Error("Connection error."), { name: "APIConnectionError", cause: { code } });

const table: [name: string, error: unknown, kind: ErrorKind][] = [
	["401", api(401, anthropicBody("authentication_error", "invalid x-api-key")), "auth"],
	["403", api(403, anthropicBody("permission_error", "no")), "auth"],
	[
		"429",
		api(429, anthropicBody("rate_limit_error", "Number of request tokens has exceeded your limit")),
		"rate_limit",
	],
	["529", api(529, anthropicBody("overloaded_error", "Overloaded")), "overloaded"],
	["overloaded_error in the stream", anthropicBody("overloaded_error", "Overloaded"), "overloaded"],
	["500", api(500, anthropicBody("api_error", "Internal server error")), "server"],
	["503 without a body", api(503, undefined), "server"],
	["400", api(400, anthropicBody("invalid_request_error", "messages: field required")), "invalid_request"],
	["404", api(404, anthropicBody("not_found_error", "model: x")), "invalid_request"],
	[
		"Anthropic prompt is too long",
		api(400, anthropicBody("invalid_request_error", "prompt is too long: 208123 tokens > 200000 maximum")),
		"overflow",
	],
	[
		"OpenAI context_length_exceeded",
		api(
			400,
			openaiBody(
				"This model's maximum context length is 128000 tokens.",
				"invalid_request_error",
				"context_length_exceeded",
			),
		),
		"overflow",
	],
	[
		"vLLM",
		api(
			400,
			openaiBody(
				"This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (112946 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.",
				"BadRequestError",
			),
		),
		"overflow",
	],
	[
		"llama.cpp (reported as a 500)",
		api(500, {
			code: 500,
			message:
				"the request exceeds the available context size. try increasing the context size or enable context shift",
			type: "exceed_context_size_error",
			n_prompt_tokens: 1407,
			n_ctx: 256,
		}),
		"overflow",
	],
	[
		"LM Studio keep tokens",
		api(400, {
			error:
				"Trying to keep the first 15857 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.",
		}),
		"overflow",
	],
	[
		"LM Studio n_keep",
		api(400, openaiBody("Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)", "invalid_request_error")),
		"overflow",
	],
	["Ollama", api(400, { error: "the input length exceeds the context length" }), "overflow"],
	["connection refused", network("ECONNREFUSED"), "network"],
	["connection reset", Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } }), "network"],
	["timeout", Object.assign(new Error("Request timed out."), { name: "APIConnectionTimeoutError" }), "timeout"],
	["user abort", Object.assign(new Error("Request was aborted."), { name: "APIUserAbortError" }), "aborted"],
	["DOM abort", Object.assign(new Error("This operation was aborted"), { name: "AbortError" }), "aborted"],
	["anything else", new Error("weird"), "other"],
];

describe("classifyError", () => {
	it.each(table)("%s", (_name, error, kind) => {
		expect(classifyError(error)).toBe(kind);
	});

	it("retries rate limits, overload, server errors and connection errors only", () => {
		const retried = (
			[
				"overflow",
				"rate_limit",
				"overloaded",
				"auth",
				"network",
				"timeout",
				"refusal",
				"server",
				"invalid_request",
				"aborted",
				"other",
			] as ErrorKind[]
		).filter(isRetryable);
		expect(retried).toEqual(["rate_limit", "overloaded", "network", "server"]);
	});

	it("reads an Ollama / LM Studio body whose error is a plain string", () => {
		const ctx = { api: "OpenAI-compatible API at http://localhost:11434/v1", keyEnv: "OPENAI_API_KEY", secrets: [] };
		expect(describeError(api(400, { error: "the input length exceeds the context length" }), ctx)).toBe(
			"OpenAI-compatible API at http://localhost:11434/v1 error 400: the input length exceeds the context length — the conversation is longer than the model's context; compact it or start anew",
		);
	});
});

describe("safeUrl", () => {
	it("drops userinfo and keeps the rest", () => {
		expect(safeUrl("https://user:pass@example.com/v1")).toBe("https://example.com/v1");
		expect(safeUrl("https://token@example.com:8443/api/")).toBe("https://example.com:8443/api/");
		expect(safeUrl("http://localhost:11434/v1")).toBe("http://localhost:11434/v1");
		expect(safeUrl("not a url user:pw@host")).toBe("not a url user:pw@host");
	});
});
