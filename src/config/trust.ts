import { dirname } from "node:path";
import { tildePath } from "../text/paths.js";
import type { FileLayer } from "./read-file.js";
import type { IgnoredKey, Layer } from "./types.js";

// Keys that send requests (and the user's key) elsewhere, choose which variable or key is sent, or hand the
// tools secrets. A cloned repository must not set them until its owner is trusted.
const REDIRECTING = new Set(["base_url", "api_key_env", "api_key", "pass_env"]);

/** Whether a project-file key could loosen safety or redirect credentials, given the user's own file. */
function loosens(key: string, value: unknown, user: FileLayer | undefined): boolean {
	const leaf = key.slice(key.lastIndexOf(".") + 1);
	if (REDIRECTING.has(leaf)) return true;
	// `read` never asks, so auto-approving it changes nothing.
	if (key === "agent.auto_approve") return (value as string[]).some((tool) => tool !== "read");
	// Turning approval on is always welcome; turning it off matters only when the user turned it on.
	if (key === "agent.approve") return value === false && user?.entries.get("agent.approve")?.value === true;
	return false;
}

/**
 * Removes from an untrusted project file (in place) every setting that could loosen safety or redirect
 * credentials, its profiles included, and returns what was removed. Harmless settings stay.
 */
export function dropUntrusted(project: FileLayer, user: FileLayer | undefined): IgnoredKey[] {
	const ignored: IgnoredKey[] = [];
	const drop = (layer: Layer, prefix: string): void => {
		for (const [key, entry] of layer) {
			if (!loosens(key, entry.value, user)) continue;
			ignored.push({ key: `${prefix}${key}`, value: entry.value, source: entry.source });
			layer.delete(key);
		}
	};
	drop(project.entries, "");
	for (const [name, profile] of project.profiles) drop(profile, `profiles.${name}.`);
	// An allow rule lets commands run unasked; a deny rule only ever asks less of the person, and stays.
	project.rules = project.rules.filter((rule) => {
		if (rule.list === "deny") return true;
		const value = { tool: rule.tool, ...(rule.prefix === undefined ? {} : { prefix: rule.prefix }) };
		const source = {
			kind: "file" as const,
			path: project.path,
			...(rule.line === undefined ? {} : { line: rule.line }),
		};
		ignored.push({ key: "permissions.allow", value, source });
		return false;
	});
	return ignored;
}

/** The one-line notice for ignored keys: which, where, and the command that trusts the project. */
export function ignoredNotice(project: FileLayer, ignored: readonly IgnoredKey[], home: string): string {
	const dir = dirname(dirname(project.path));
	const shown = tildePath(dir, home);
	const root = /^[\w@%+=:,./~-]+$/.test(shown) ? shown : `'${dir.replace(/'/g, "'\\''")}'`;
	const keys = [...new Set(ignored.map((entry) => entry.key))].join(", ");
	return `ignored ${keys} from ${tildePath(project.path, home)}: the project is not trusted (run "gar trust ${root}" to apply them)`;
}
