import { sanitizeForTerminal } from "../term/sanitize.js";
import { stripUserinfo } from "./mask.js";

/** A config message safe to print: no URL userinfo, no terminal controls (a file's keys are quoted in messages). */
export function safeMessage(text: string): string {
	return sanitizeForTerminal(stripUserinfo(text));
}

/** A config problem gar must not start with. `message` is ready to print (one problem per line, made safe). */
export class ConfigError extends Error {
	readonly problems: string[];

	constructor(problems: string | string[]) {
		const list = (typeof problems === "string" ? [problems] : problems).map(safeMessage);
		super(list.join("\n"));
		this.name = "ConfigError";
		this.problems = list;
	}
}

/** No API key for the chosen provider (and no base URL that needs none): the message names what to set. */
export class MissingKeyError extends ConfigError {
	constructor(
		message: string,
		/** The variable the key is read from, e.g. ANTHROPIC_API_KEY. */
		readonly keyEnv: string,
	) {
		// Keeps the name "ConfigError": the CLI maps that name to exit code 2.
		super(message);
	}
}
