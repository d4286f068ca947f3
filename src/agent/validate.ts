import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";

/**
 * Compiles a JSON Schema (draft-07 or 2020-12, chosen by its `$schema`) into a validator that returns null for
 * a valid value, else the errors in words. Throws when the schema itself is invalid.
 */
export function compileValidator(schema: Record<string, unknown>): (value: unknown) => string | null {
	const draft2020 = typeof schema.$schema === "string" && schema.$schema.includes("2020-12");
	const ajv = draft2020 ? new Ajv2020({ allErrors: true, strict: false }) : new Ajv({ allErrors: true, strict: false });
	const validate = ajv.compile(schema);
	return (value) => {
		if (validate(value)) return null;
		return (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`).join("; ");
	};
}
