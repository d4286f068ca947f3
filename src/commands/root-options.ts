// The root command's options as commander hands them over, and what of them goes to the configuration (cli.ts and
// the subcommands' declarations in register.ts share them). Nothing here loads anything.
import { InvalidArgumentError } from "commander";
import type { OutputFormat } from "../output/print-output.js";

export type RootOptions = {
	print?: boolean;
	plain?: boolean;
	output: OutputFormat;
	/** `stream-json`: commands as JSON lines on stdin (--input-format). */
	inputFormat?: "text" | "stream-json";
	provider?: "anthropic" | "openai";
	model?: string;
	baseUrl?: string;
	maxTurns?: number;
	tools?: string[];
	systemPrompt?: string;
	appendSystemPrompt?: string;
	cwd?: string;
	schema?: string;
	profile?: string;
	approve?: boolean;
	thinking?: "off" | "low" | "medium" | "high";
	bashTimeout?: number;
	idleTimeout?: number;
	continue?: boolean;
	/** An id or path; false with --no-session. */
	session?: string | false;
	at?: string;
	/** -p --rewind-to ENTRY [--files]: rewind the session before the run. */
	rewindTo?: string;
	files?: boolean;
	/** -r / --resume [SEARCH]: true without a search text. */
	resume?: string | true;
	sessionDir?: string;
	/** false with --no-stdin. */
	stdin?: boolean;
	maxStdin?: number;
	/** --theme NAME for the full-screen app. */
	theme?: string;
	/** false with --no-hooks. */
	hooks?: boolean;
};

/** The options the configuration takes as flags (config/ ConfigFlags), those given only. */
export function configFlags(o: RootOptions) {
	return {
		...(o.provider ? { provider: o.provider } : {}),
		...(o.model ? { model: o.model } : {}),
		...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
		...(o.maxTurns ? { maxTurns: o.maxTurns } : {}),
		...(o.profile ? { profile: o.profile } : {}),
		...(o.approve ? { approve: true } : {}),
		...(o.thinking ? { thinking: o.thinking } : {}),
		...(o.bashTimeout ? { bashTimeout: o.bashTimeout } : {}),
		...(o.idleTimeout ? { idleTimeout: o.idleTimeout } : {}),
		...(o.sessionDir ? { sessionDir: o.sessionDir } : {}),
	};
}

/** commander's parser of an option that takes a number greater than 0 (seconds, a speed). */
export function positiveNumber(value: string): number {
	const n = Number(value);
	if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a number greater than 0");
	return n;
}
