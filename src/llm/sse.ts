import { StringDecoder } from "node:string_decoder";
import { createParser } from "eventsource-parser";
import type { ErrorKind, StopReason } from "./types.js";

/** How one model call ended. */
export type CallOutcome = { stopReason: StopReason; error?: string; errorKind?: ErrorKind };

/** Turns one reply's server-sent events into builder calls; one per attempt that streams. */
export type SseDecoder = {
	/** One event (`data` is the raw text). An outcome ends the reply early (an `error` event); throwing ends it too. */
	event(name: string | undefined, data: string): CallOutcome | undefined;
	/** True once the reply is complete (a stop reason or `[DONE]` arrived): the rest of the body is not needed. */
	readonly complete: boolean;
	/** The body ended: how the reply ended. */
	end(): CallOutcome;
};

/** A response body as the SDKs' fetch returns it: a web ReadableStream or an async iterable of bytes. */
export type Body = AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;

/**
 * Reads an SSE body into `decoder`: per chunk one UTF-8 decode and one parser feed; per event one `decoder.event`.
 * `onChunk` runs for every chunk (the idle timer). Resolves with the decoder's outcome; rejects when reading fails
 * or the decoder throws. A last event without its closing blank line is still delivered.
 */
export async function readSse(body: Body, decoder: SseDecoder, onChunk: () => void): Promise<CallOutcome> {
	let early: CallOutcome | undefined;
	let failure: { error: unknown } | undefined;
	const parser = createParser({
		onEvent(message) {
			if (early || failure) return;
			try {
				early = decoder.event(message.event, message.data);
			} catch (error) {
				failure = { error };
			}
		},
	});
	// Node's StringDecoder: a character split across two chunks is kept for the next, as TextDecoder's stream mode
	// does, at a seventh of its cost on Node 20.
	const text = new StringDecoder("utf8");
	for await (const chunk of body as AsyncIterable<Uint8Array>) {
		onChunk();
		parser.feed(text.write(chunk));
		if (failure) throw failure.error;
		if (early) return early;
	}
	parser.feed(`${text.end()}\n\n`);
	if (failure) throw failure.error;
	return early ?? decoder.end();
}
