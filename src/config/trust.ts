import { displayPath } from "./paths.js";
import type { FileLayer } from "./read-file.js";
import type { Entry, Layer } from "./types.js";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A project file comes with the repository, so it is less trusted than the user's own file. These warnings
 * name project settings that decide where API keys are sent or that weaken approval. They change nothing.
 */
export function projectWarnings(
	project: FileLayer,
	user: FileLayer | undefined,
	merged: Layer,
	home: string,
): string[] {
	const warnings: string[] = [];
	const shown = displayPath(project.path, home);
	const fromProject = (entry: Entry | undefined): entry is Entry =>
		entry !== undefined &&
		(entry.source.kind === "file" || entry.source.kind === "profile") &&
		entry.source.path === project.path;
	for (const key of ["base_url", "providers.anthropic.base_url", "providers.openai.base_url"]) {
		const entry = merged.get(key);
		if (fromProject(entry) && !LOOPBACK.has(new URL(String(entry.value)).hostname)) {
			warnings.push(
				`project file ${shown} sends model requests, with your API key, to ${String(entry.value)} (${key}); remove it if you do not trust this repository`,
			);
		}
	}
	for (const provider of ["anthropic", "openai"]) {
		const entry = merged.get(`providers.${provider}.api_key_env`);
		if (fromProject(entry)) {
			warnings.push(
				`project file ${shown} makes gar send the variable ${String(entry.value)} as the ${provider} API key (api_key_env)`,
			);
		}
	}
	const approve = merged.get("agent.approve");
	if (fromProject(approve) && approve.value === false && user?.entries.get("agent.approve")?.value === true) {
		warnings.push(
			`project file ${shown} turns approval off (agent.approve = false) although your user file turns it on`,
		);
	}
	const auto = merged.get("agent.auto_approve");
	const risky = fromProject(auto) ? (auto.value as string[]).filter((tool) => tool !== "read") : [];
	if (approve?.value === true && risky.length > 0) {
		warnings.push(`project file ${shown} lets ${risky.join(", ")} run without approval (agent.auto_approve)`);
	}
	return warnings;
}
