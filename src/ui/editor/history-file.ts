import { createHash } from "node:crypto";
import { join, resolve } from "node:path";

/**
 * The history file of a project: one per working directory, under the data dir (`…/gar/history/`). Its own module
 * so node:crypto loads after the app's first frame.
 */
export function historyFile(dataDir: string, cwd: string): string {
	const key = createHash("sha256").update(resolve(cwd)).digest("hex").slice(0, 16);
	return join(dataDir, "history", `${key}.jsonl`);
}
