/** JSON Schema as sent to a provider: without the top-level `$schema`, which some servers reject. */
export function cleanSchema(schema: Record<string, unknown>): Record<string, unknown> {
	if (!("$schema" in schema)) return schema;
	const { $schema: _ignored, ...rest } = schema;
	return rest;
}
