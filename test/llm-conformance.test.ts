// Recorded streams from real servers (test/fixtures/wire/*.sse, provenance and every change in the .json beside
// each), replayed byte for byte through the real SDKs over loopback: once whole, once in 3-byte writes.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicProvider } from "../src/llm/anthropic.js";
import { createOpenAIProvider } from "../src/llm/openai.js";
import type { AssistantMessage, StreamEvent } from "../src/llm/types.js";
import { collect, startReplayServer, type WireServer } from "./support/wire-server.js";

const DIR = new URL("./fixtures/wire/", import.meta.url).pathname;

type Fixture = {
	name: string;
	wire: "anthropic" | "openai";
	source: { repository: string; path: string; commit: string | null; url: string };
	changes: string[];
	expect: Pick<AssistantMessage, "content" | "usage" | "stopReason" | "errorKind">;
	errorKind?: string;
};

const fixtures: Fixture[] = readdirSync(DIR)
	.filter((f) => f.endsWith(".json"))
	.sort()
	.map((f) => ({ name: f.slice(0, -5), ...JSON.parse(readFileSync(join(DIR, f), "utf8")) }));

/** In-stream errors: the kind gar gives them (asserted here rather than in the recordings' sidecars). */
const ERROR_KINDS: Record<string, string> = {
	"anthropic-mid-stream-error": "server",
	"groq-mid-stream-error": "invalid_request",
	"openrouter-stream-error": "invalid_request",
};

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/** Every delta's contentIndex names a block of its kind, and each block's deltas join to its final text. */
function checkContentIndex(events: StreamEvent[], message: AssistantMessage) {
	const joined = new Map<number, string>();
	for (const e of events) {
		if (e.type !== "text_delta" && e.type !== "thinking_delta") continue;
		const block = message.content[e.contentIndex];
		expect(block?.type).toBe(e.type === "text_delta" ? "text" : "thinking");
		joined.set(e.contentIndex, (joined.get(e.contentIndex) ?? "") + e.delta);
	}
	for (const [index, text] of joined) {
		const block = message.content[index];
		expect(block?.type === "text" ? block.text : block?.type === "thinking" ? block.thinking : undefined).toBe(text);
	}
	for (const e of events) {
		if (e.type === "toolcall_start")
			expect(message.content[e.contentIndex]).toMatchObject({ type: "tool_call", id: e.id });
	}
}

it("holds at least 20 recordings, each with its provenance and changes", () => {
	expect(fixtures.length).toBeGreaterThanOrEqual(20);
	for (const f of fixtures) {
		expect(f.source.repository).toMatch(/^[\w.-]+\/[\w.-]+$/);
		// A repository file is pinned to its commit; a paste in an issue thread is named by the thread's URL.
		if (f.source.commit === null) expect(f.source.url).toMatch(/^https:\/\/github\.com\/.+\/issues\/\d+$/);
		else expect(f.source.commit).toMatch(/^[0-9a-f]{40}$/);
		expect(f.changes.length).toBeGreaterThan(0);
	}
});

describe.each(fixtures)("$name ($wire)", (fixture) => {
	const body = readFileSync(join(DIR, `${fixture.name}.sse`));
	it.each([
		["whole", undefined],
		["3-byte writes", 3],
	])("replays %s", async (_label, pieceBytes) => {
		server = await startReplayServer(body, pieceBytes);
		const options = { apiKey: "k", maxRetries: 0 };
		const provider =
			fixture.wire === "anthropic"
				? createAnthropicProvider({ ...options, baseURL: server.url })
				: createOpenAIProvider({ ...options, baseURL: `${server.url}/v1` });
		const { events, message } = await collect(provider, { model: "recorded" });
		expect(message.content).toEqual(fixture.expect.content);
		expect(message.usage).toEqual(fixture.expect.usage);
		expect(message.stopReason).toBe(fixture.expect.stopReason);
		const kind = ERROR_KINDS[fixture.name] ?? fixture.expect.errorKind;
		if (kind) expect(message.errorKind).toBe(kind);
		if (message.stopReason === "error") expect(message.error).toBeTruthy();
		checkContentIndex(events, message);
		expect(events.filter((e) => e.type === "retry")).toEqual([]);
	});
});
