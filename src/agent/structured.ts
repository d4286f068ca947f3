/** A structured-output requirement: the final answer must be JSON valid against `schema`. */
export type OutputSchema = {
	name: string;
	schema: Record<string, unknown>;
	/** Returns null when `value` is valid, else the validation errors in words. */
	validate: (value: unknown) => string | null;
};

export type StructuredCheck = { ok: true; value: unknown } | { ok: false; errors: string };

/** Parses an answer as JSON (tolerating a ```json fence around it) and validates it. Never throws. */
export function checkAnswer(text: string, output: OutputSchema): StructuredCheck {
	const trimmed = text.trim();
	const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
	const json = fenced?.[1] ?? trimmed;
	let value: unknown;
	try {
		value = JSON.parse(json);
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		return { ok: false, errors: `the answer is not valid JSON (${why})` };
	}
	const errors = output.validate(value);
	return errors === null ? { ok: true, value } : { ok: false, errors };
}
