// What a model call sent, as the provider tells it (ModelRequest.onSent): the sha256 of the exact bytes the server
// received, the URL and the headers with every credential masked; and the SDK-free body builder (wire-body.ts) builds
// the same JSON the SDK sent, on both wires.
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicProvider } from "../src/llm/anthropic.js";
import { createOpenAIProvider } from "../src/llm/openai.js";
import type { ModelRequest, SentRequest } from "../src/llm/types.js";
import { bodySha256, bodyText, wireBody } from "../src/llm/wire-body.js";
import { collect, startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const KEY = "sk-test-0123456789abcdef";
const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

const request = (model: string): ModelRequest => ({
	model,
	system: "You are terse. ünïcödé ✓",
	messages: [{ role: "user", content: 'say "hi"\n\ttabbed' }],
	tools: [{ name: "read", description: "Read a file.", parameters: { type: "object", properties: {} } }],
	maxTokens: 100,
});

describe("the request a model call sent", () => {
	for (const wire of ["anthropic", "openai"] as const) {
		it(`${wire}: the hash of the exact bytes, the URL, the headers masked; the SDK-free body is what was sent`, async () => {
			server = await startWireServer([{ text: "hi" }, { text: "again" }]);
			const provider =
				wire === "anthropic"
					? createAnthropicProvider({ apiKey: KEY, baseURL: server.url })
					: createOpenAIProvider({ apiKey: KEY, baseURL: `${server.url}/v1` });
			const sent: SentRequest[] = [];
			const model = wire === "anthropic" ? "claude-sonnet-4-5" : "gpt-5.4";
			await collect(provider, { ...request(model), onSent: (s) => sent.push(s) });
			expect(sent).toHaveLength(1);
			const received = server.requests[0];
			expect(sent[0]?.bodySha256).toBe(sha(received?.raw ?? ""));
			expect(sent[0]?.bodyBytes).toBe(Buffer.byteLength(received?.raw ?? ""));
			expect(sent[0]?.method).toBe("POST");
			expect(sent[0]?.url).toBe(`${server.url}${wire === "anthropic" ? "/v1/messages" : "/v1/chat/completions"}`);
			const headers = JSON.stringify(sent[0]?.headers);
			expect(headers).not.toContain(KEY);
			expect(headers).not.toContain("0123456789abcdef");
			expect(sent[0]?.headers["content-type"]).toBe("application/json");
			// Both SDKs send the key as a bearer token (see AGENTS.md).
			expect(received?.headers.authorization).toContain(KEY);
			expect(sent[0]?.headers.authorization).toBe("[redacted]");
			// Built without the SDK, the body is the one the server got, byte for byte.
			const body = wireBody(wire, request(model));
			expect(body).toEqual(received?.body);
			expect(bodySha256(bodyText(body))).toBe(sent[0]?.bodySha256);
			// Without a listener nothing is captured (and nothing breaks).
			await collect(provider, request(model));
			expect(server.requests).toHaveLength(2);
		});
	}

	it("each attempt reports what it sent: a retried request reports twice, the same bytes", async () => {
		server = await startWireServer([{ text: "ok", fault: { kind: "http", status: 529 } }]);
		const provider = createAnthropicProvider({ apiKey: KEY, baseURL: server.url, retry: { baseDelayMs: 1 } });
		const sent: SentRequest[] = [];
		await collect(provider, { ...request("claude-sonnet-4-5"), onSent: (s) => sent.push(s) });
		expect(sent).toHaveLength(2);
		expect(sent[1]?.bodySha256).toBe(sent[0]?.bodySha256);
	});

	it("two calls at once on one provider: each hears only what it sent, and the marker never reaches the server", async () => {
		server = await startWireServer(() => ({ text: "ok" }));
		const provider = createOpenAIProvider({ apiKey: KEY, baseURL: `${server.url}/v1` });
		const first: SentRequest[] = [];
		const second: SentRequest[] = [];
		await Promise.all([
			collect(provider, { ...request("gpt-5.4"), onSent: (s) => first.push(s) }),
			collect(provider, { ...request("gpt-5.4-mini"), onSent: (s) => second.push(s) }),
		]);
		const raw = (model: string) =>
			server?.requests.find((r) => (r.body as { model?: string }).model === model)?.raw ?? "";
		expect(first.map((s) => s.bodySha256)).toEqual([sha(raw("gpt-5.4"))]);
		expect(second.map((s) => s.bodySha256)).toEqual([sha(raw("gpt-5.4-mini"))]);
		for (const received of server.requests) expect(JSON.stringify(received.headers)).not.toContain("gar.onSent");
	});

	it("a wire gar does not speak has no body", () => {
		expect(wireBody("scripted", request("m"))).toBeUndefined();
	});
});
