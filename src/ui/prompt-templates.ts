import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { configPaths } from "../config/paths.js";
import { projectTrust } from "../config/trust-store.js";
import { expandTemplate, loadTemplates, type PromptTemplate } from "../prompt/templates.js";
import { tildePath } from "../text/paths.js";
import type { TemplateCommand } from "./screens/commands.js";

/**
 * The prompt templates as slash commands (README "Prompt templates"): `~/.config/gar/prompts/*.md` and, in a
 * trusted project, `.gar/prompts/*.md`. Read again when a folder changes (a file added, removed or renamed), and a
 * template's file again when it runs, so an edit applies without a restart. `skipped`: an untrusted project's
 * templates, in one line.
 */
export function promptTemplates(
	cwd: string,
	env: NodeJS.ProcessEnv,
	home: string,
	reserved: readonly string[],
): { list: () => TemplateCommand[]; skipped: string | null } {
	const user = join(configPaths(home, env).configDir, "prompts");
	const { root, trusted } = projectTrust(cwd, configPaths(home, env).configDir);
	const project = join(root, ".gar", "prompts");
	const dirs = { user, project: trusted ? project : null };
	let seen = "";
	let commands: TemplateCommand[] = [];
	const list = () => {
		const stamp = [user, dirs.project].map(folderStamp).join("|");
		if (stamp !== seen || commands.length === 0) {
			seen = stamp;
			commands = loadTemplates(dirs, reserved).map((template) => command(template, dirs, reserved));
		}
		return commands;
	};
	const untrusted = trusted ? 0 : countTemplates(project);
	const shown = tildePath(root, home);
	const skipped =
		untrusted > 0
			? `not using ${untrusted === 1 ? "the prompt template" : `${untrusted} prompt templates`} in ${tildePath(project, home)}: the project is not trusted (run "gar trust ${shown}" to use them)`
			: null;
	return { list, skipped };
}

/** A template as the commands see it; running it reads its file again (an edit since applies). */
function command(
	template: PromptTemplate,
	dirs: { user: string; project: string | null },
	reserved: readonly string[],
): TemplateCommand {
	const { name, source, argumentHint, description, problem } = template;
	return {
		name,
		source,
		args: argumentHint,
		description: description ?? (source === "built-in" ? "" : `${source} prompt template`),
		...(problem === undefined ? {} : { problem }),
		expand: (args) => {
			const now = template.file
				? loadTemplates(dirs, reserved).find((t) => t.name === name && t.source === source)
				: template;
			if (!now || now.problem !== undefined)
				throw new Error(`/${name} cannot run: ${now?.problem ?? "its file is gone"}`);
			return expandTemplate(now, args);
		},
	};
}

/** What changes when a folder's files are added, removed or renamed (its mtime); "" for none. */
function folderStamp(dir: string | null): string {
	if (!dir) return "";
	try {
		return String(statSync(dir).mtimeMs);
	} catch {
		return "";
	}
}

function countTemplates(dir: string): number {
	try {
		return readdirSync(dir).filter((name) => name.toLowerCase().endsWith(".md")).length;
	} catch {
		return 0;
	}
}
