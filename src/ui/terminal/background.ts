/** Whether the terminal's background is light or dark: which built-in theme reads better on it. */
export type Background = "light" | "dark";

export type Rgb = { r: number; g: number; b: number };

/** What a terminal sends in reply to `OSC 11 ; ?`: `rgb:RRRR/GGGG/BBBB` (1–4 hex digits each), ended by BEL or ST. */
const ESC = "\x1b";
const OSC11_REPLY = new RegExp(
	`${ESC}\\]11;rgba?:([0-9a-f]{1,4})/([0-9a-f]{1,4})/([0-9a-f]{1,4})(?:/[0-9a-f]{1,4})?(?:\x07|${ESC}\\\\)`,
	"i",
);
/** The reply to DA1 (`CSI c`), which nearly every terminal answers: `CSI ? … c`. */
const DA1_REPLY = new RegExp(`${ESC}\\[\\?[0-9;]*c`);

/** The background colour in an OSC 11 reply (each channel 0..1), or undefined when `text` holds none (yet). */
export function parseBackgroundReply(text: string): Rgb | undefined {
	const match = OSC11_REPLY.exec(text);
	if (!match) return undefined;
	const channel = (hex: string) => Number.parseInt(hex, 16) / (16 ** hex.length - 1);
	return { r: channel(match[1] as string), g: channel(match[2] as string), b: channel(match[3] as string) };
}

/** Relative luminance (WCAG) of an sRGB colour with channels 0..1. */
export function luminance({ r, g, b }: Rgb): number {
	const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
	return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** Light above 0.18: from there dark text has more contrast on the background than light text has. */
export function backgroundOf(rgb: Rgb): Background {
	return luminance(rgb) > 0.18 ? "light" : "dark";
}

/**
 * The hint some terminals (rxvt, Konsole, …) put in COLORFGBG: "fg;bg" or "fg;default;bg", colours as ANSI
 * indexes. Background 7 or 9–15 is light, 0–6 and 8 dark; anything else: no hint.
 */
export function colorFgBgHint(env: NodeJS.ProcessEnv): Background | undefined {
	const last = env.COLORFGBG?.split(";").pop();
	if (last === undefined || !/^\d+$/.test(last)) return undefined;
	const bg = Number(last);
	if (bg > 15) return undefined;
	return bg === 7 || bg >= 9 ? "light" : "dark";
}

/** Whether NO_COLOR asks for no colour: set and not empty (no-color.org). */
export function noColor(env: NodeJS.ProcessEnv): boolean {
	return (env.NO_COLOR ?? "") !== "";
}

type QueryStdin = NodeJS.ReadStream & { setRawMode?: (mode: boolean) => unknown };

/**
 * Asks the terminal for its background colour (OSC 11) and, right after, for its attributes (DA1). Terminals answer
 * in order, so the DA1 reply ends the wait: a terminal that ignores OSC 11 costs one round trip, not the timeout.
 * Resolves undefined when stdin/stdout is not a terminal or nothing answered in `timeoutMs`. Call it before Ink
 * reads stdin: it reads in raw mode with its own listener, then removes it, puts back any other bytes that came
 * (keys typed meanwhile) for Ink to read, and restores the raw mode it found. Never rejects.
 */
export function queryBackground(
	stdin: QueryStdin,
	stdout: NodeJS.WriteStream,
	timeoutMs = 100,
): Promise<Background | undefined> {
	if (!stdin.isTTY || !stdout.isTTY || typeof stdin.setRawMode !== "function") return Promise.resolve(undefined);
	const wasRaw = stdin.isRaw === true;
	return new Promise((resolve) => {
		let received = "";
		let settled = false;
		const finish = () => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			stdin.off("readable", onReadable);
			// What is already read but not yet handled (the answer may be here): never left for Ink to read as keys.
			for (let chunk = stdin.read(); chunk !== null; chunk = stdin.read()) received += String(chunk);
			const rgb = parseBackgroundReply(received);
			const rest = received.replace(OSC11_REPLY, "").replace(DA1_REPLY, "");
			try {
				if (rest !== "") stdin.unshift(rest, "utf8");
				stdin.setRawMode?.(wasRaw);
				stdin.pause();
			} catch {
				// A terminal gone meanwhile: the answer (if any) still counts.
			}
			resolve(rgb ? backgroundOf(rgb) : undefined);
		};
		const onReadable = () => {
			for (let chunk = stdin.read(); chunk !== null; chunk = stdin.read()) received += String(chunk);
			if (DA1_REPLY.test(received)) finish();
		};
		// On time out, one more turn of the event loop first: a timer that fires late because start-up kept the loop
		// busy must not beat an answer that arrived meanwhile (I/O is handled after timers, before setImmediate).
		const timer = setTimeout(() => setImmediate(finish), timeoutMs);
		try {
			stdin.setRawMode?.(true);
			stdin.on("readable", onReadable);
			stdout.write("\x1b]11;?\x1b\\\x1b[c");
		} catch {
			finish();
		}
	});
}

/**
 * The app's terminal, taken as early as possible: cli.ts calls this before the app's code loads. Keys are read raw
 * from here on (in the terminal's line mode, its driver echoed a key typed before the app read keys over the screen,
 * and took Ctrl+U itself, erasing nothing the app had); and the terminal is asked for its background, the query the
 * first frame waits for, so it answers meanwhile. No query when a theme is named (`--theme`) or NO_COLOR is set (see
 * theme/start.ts).
 */
export function earlyTerminal(
	theme: string | undefined,
	env: NodeJS.ProcessEnv,
	stdin: QueryStdin = process.stdin,
	stdout: NodeJS.WriteStream = process.stdout,
): Promise<Background | undefined> | undefined {
	try {
		if (stdin.isTTY) stdin.setRawMode?.(true);
	} catch {
		// A terminal gone meanwhile: the app finds out as it starts.
	}
	if (theme || noColor(env)) return undefined;
	return queryBackground(stdin, stdout);
}
