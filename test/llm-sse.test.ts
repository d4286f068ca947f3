// readSse (src/llm/sse.ts): a body's bytes, cut anywhere, become the same events.
import { describe, expect, it } from "vitest";
import { type CallOutcome, readSse, type SseDecoder } from "../src/llm/sse.js";

/** A decoder that keeps each event's data. */
function keeper(): SseDecoder & { data: string[] } {
	const data: string[] = [];
	return {
		data,
		complete: false,
		event: (_name, text) => {
			data.push(text);
			return undefined;
		},
		end: (): CallOutcome => ({ stopReason: "stop" }),
	};
}

async function* chunks(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
	let at = 0;
	for (const cut of [...cuts, bytes.length]) {
		yield bytes.subarray(at, cut);
		at = cut;
	}
}

describe("readSse", () => {
	it("keeps a character whose bytes are cut between chunks, at every cut", async () => {
		const events = ['{"t":"é 😀 中"}', '{"t":"\u00a0ok"}'];
		const bytes = new TextEncoder().encode(events.map((e) => `data: ${e}\n\n`).join(""));
		for (let cut = 1; cut < bytes.length; cut++) {
			const decoder = keeper();
			expect(await readSse(chunks(bytes, [cut]), decoder, () => {})).toEqual({ stopReason: "stop" });
			expect(decoder.data).toEqual(events);
		}
		// Every byte a chunk of its own.
		const decoder = keeper();
		await readSse(chunks(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)), decoder, () => {});
		expect(decoder.data).toEqual(events);
	});

	it("delivers a last event without its blank line, and a character cut at the very end as U+FFFD", async () => {
		const decoder = keeper();
		const bytes = new TextEncoder().encode('data: {"t":"a"}\n\ndata: last é');
		await readSse(chunks(bytes.subarray(0, bytes.length - 1), []), decoder, () => {});
		expect(decoder.data).toEqual(['{"t":"a"}', "last \ufffd"]);
	});
});
