/** A config problem gar must not start with. `message` is ready to print (one problem per line). */
export class ConfigError extends Error {
	readonly problems: string[];

	constructor(problems: string | string[]) {
		const list = typeof problems === "string" ? [problems] : problems;
		super(list.join("\n"));
		this.name = "ConfigError";
		this.problems = list;
	}
}
