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
 * Pieces a read is fed in: the parser's work per feed stays bounded. A Node stream iterated (gar's own fetch) hands
 * over all it has buffered at once, many events in one read; that is why it is iterated, not read by its events.
 */
const PIECE = 16 * 1024;

/**
 * Reads an SSE body into `decoder`: per chunk one UTF-8 decode and one parser feed (a large read in pieces); per event
 * one `decoder.event`. `onChunk` runs for every chunk (the idle timer). Resolves with the decoder's outcome; rejects
 * when reading fails or the decoder throws. A last event without its closing blank line is still delivered.
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
	/** One chunk fed; true once the rest of the body is not wanted (an outcome came, or the decoder threw). */
	const take = (chunk: Uint8Array): boolean => {
		onChunk();
		for (let at = 0; at < chunk.length && !early && !failure; at += PIECE) {
			parser.feed(text.write(chunk.length <= PIECE ? chunk : chunk.subarray(at, at + PIECE)));
		}
		return early !== undefined || failure !== undefined;
	};
	/** The outcome so far: the decoder's error thrown, or the outcome that ended the reply early. */
	const sofar = (): CallOutcome | undefined => {
		if (failure) throw failure.error;
		return early;
	};
	for await (const chunk of body as AsyncIterable<Uint8Array>) if (take(chunk)) break;
	const cut = sofar();
	if (cut) return cut;
	parser.feed(`${text.end()}\n\n`);
	return sofar() ?? decoder.end();
}
