// readSse (src/llm/sse.ts): a body's bytes, cut anywhere, become the same events.
import { PassThrough, Readable } from "node:stream";
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
		await readSse(
			chunks(
				bytes,
				Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
			),
			decoder,
			() => {},
		);
		expect(decoder.data).toEqual(events);
	});

	it("a read far larger than the parser's pieces (16 KiB) gives the same events, a character cut between pieces kept", async () => {
		// 3 bytes a character: the 16 KiB boundaries fall inside characters.
		const events = Array.from({ length: 400 }, (_, i) => `{"t":"${"中".repeat(50)}${i}"}`);
		const bytes = new TextEncoder().encode(events.map((e) => `data: ${e}\n\n`).join(""));
		expect(bytes.length).toBeGreaterThan(3 * 16 * 1024);
		const decoder = keeper();
		await readSse(chunks(bytes, []), decoder, () => {});
		expect(decoder.data).toEqual(events);
	});

	it("delivers a last event without its blank line, and a character cut at the very end as U+FFFD", async () => {
		const decoder = keeper();
		const bytes = new TextEncoder().encode('data: {"t":"a"}\n\ndata: last é');
		await readSse(chunks(bytes.subarray(0, bytes.length - 1), []), decoder, () => {});
		expect(decoder.data).toEqual(['{"t":"a"}', "last \ufffd"]);
	});

	it("reads a Node stream: an early outcome stops and destroys it, a failure or a cut rejects", async () => {
		const events = (n: number) => Array.from({ length: n }, (_, i) => `data: {"i":${i}}\n\n`).join("");
		// The whole body, as a Node stream (gar's own fetch).
		const all = keeper();
		expect(await readSse(Readable.from([Buffer.from(events(3))]), all, () => {})).toEqual({ stopReason: "stop" });
		expect(all.data).toEqual(['{"i":0}', '{"i":1}', '{"i":2}']);
		// An outcome from the decoder ends the read, and the stream is destroyed: the rest is not waited for.
		const stream = new PassThrough();
		const early: SseDecoder = { ...keeper(), event: () => ({ stopReason: "error", error: "stop here" }) };
		const read = readSse(stream, early, () => {});
		stream.write(events(1));
		expect(await read).toEqual({ stopReason: "error", error: "stop here" });
		expect(stream.destroyed).toBe(true);
		// A stream that fails, or closes before its end, rejects the read.
		const failing = new PassThrough();
		const failed = readSse(failing, keeper(), () => {});
		failing.write(events(1));
		failing.destroy(new Error("socket hang up"));
		await expect(failed).rejects.toThrow("socket hang up");
		const cut = new PassThrough();
		const closed = readSse(cut, keeper(), () => {});
		cut.write(events(1));
		cut.destroy();
		await expect(closed).rejects.toThrow(/premature close/i);
	});
});
