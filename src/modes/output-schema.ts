import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { OutputSchema } from "../agent/structured.js";
import { UsageError } from "../errors.js";

/** Reads a JSON Schema file and compiles a validator for it (ajv is loaded only when a schema is used). */
export async function loadOutputSchema(file: string, cwd: string): Promise<OutputSchema> {
	let schema: Record<string, unknown>;
	try {
		schema = JSON.parse(readFileSync(isAbsolute(file) ? file : join(cwd, file), "utf8"));
	} catch (error) {
		throw new UsageError(`--schema ${file}: ${error instanceof Error ? error.message : String(error)}`);
	}
	return outputSchema(schema, `--schema ${file}`);
}

/** Compiles a JSON Schema given as a value; `what` names it in the UsageError of an invalid one. */
export async function outputSchema(schema: Record<string, unknown>, what: string): Promise<OutputSchema> {
	const { compileValidator } = await import("../agent/validate.js");
	try {
		return { name: "final_answer", schema, validate: compileValidator(schema) };
	} catch (error) {
		throw new UsageError(`${what} is not a valid JSON Schema: ${error instanceof Error ? error.message : error}`);
	}
}
