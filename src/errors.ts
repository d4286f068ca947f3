/** A problem with what the person asked for (flags, config, files): printed as is, exit code 2. */
export class UsageError extends Error {
	override name = "UsageError";
}

/** True for errors whose message is meant for the person and means "bad usage or configuration" (exit 2). */
export function isUsageError(error: unknown): error is Error {
	return (
		error instanceof Error &&
		(error.name === "UsageError" || error.name === "ConfigError" || error.name === "SessionError")
	);
}
