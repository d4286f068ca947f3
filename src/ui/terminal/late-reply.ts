import type { Key } from "ink";

type Handler = (input: string, key: Key) => void;

/** The parts of a late OSC 11 answer as Ink passes them on: "]", "11;rgb:…" (BEL-ended or not), then "\". */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the answer may end in BEL (0x07).
const OSC_BODY = /^1[01];rgba?:[0-9a-f/]+(\x07)?$/i;
/** A DA1 answer as Ink passes it on: "[?62;22c". */
const DA1 = /^\[\?[\d;]*c$/;

/**
 * Drops a terminal's answer to the start-up background query (OSC 11 + DA1, background.ts) that arrives
 * after the query stopped waiting (a slow link): Ink would pass it on as typed text. A lone "]" is held until the
 * end of its read (a microtask) to see whether an answer follows; typed, it is applied then.
 */
export function withoutLateReplies(handle: Handler): Handler {
	let held: Key | null = null;
	let skipTerminator = false;
	return (input, key) => {
		if (held) {
			const key0 = held;
			held = null;
			const body = OSC_BODY.exec(input);
			if (body) {
				skipTerminator = body[1] === undefined;
				return;
			}
			handle("]", key0);
		}
		if (skipTerminator) {
			skipTerminator = false;
			if (input === "\\") return;
		}
		if (DA1.test(input)) return;
		if (input === "]") {
			held = key;
			queueMicrotask(() => {
				if (held) {
					const key0 = held;
					held = null;
					handle("]", key0);
				}
			});
			return;
		}
		handle(input, key);
	};
}
