import { spawnSync } from "node:child_process";
import { chmodSync, closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function canAppend(file: string): boolean {
	try {
		closeSync(openSync(file, "a"));
		return true;
	} catch {
		return false;
	}
}

/**
 * Makes `file` unwritable for this process the way it happens to people: read-only mode bits, which stop a normal
 * user; as root (these tests' machine), where mode bits stop nothing, the immutable attribute (`chattr +i`, on ext4,
 * xfs, btrfs). Returns the undo (call it, or the temp folder cannot be removed), or undefined when neither works.
 */
export function makeUnwritable(file: string): (() => void) | undefined {
	chmodSync(file, 0o444);
	if (!canAppend(file)) return () => chmodSync(file, 0o644);
	chmodSync(file, 0o644);
	if (spawnSync("chattr", ["+i", file]).status === 0) {
		const undo = () => void spawnSync("chattr", ["-i", file]);
		if (!canAppend(file)) return undo;
		undo();
	}
	return undefined;
}

const ROOT = process.getuid?.() === 0;
/** Root needs only a mount namespace; a normal user gets one inside a user namespace (`unshare -r`). */
const UNSHARE = ["unshare", ...(ROOT ? [] : ["-r"]), "-m"];
/** Bind-mounts "$0" on itself read-only (in the private namespace only), then runs "$@". */
const READ_ONLY = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"';

/**
 * The argv that runs `command` with `dir` on a read-only file system (EROFS), seen only by that process: a private
 * mount namespace, so nothing is left mounted. Undefined when this machine allows no mount namespace.
 */
export function onReadOnlyMount(dir: string, command: string[]): string[] | undefined {
	return READ_ONLY_MOUNTS ? [...UNSHARE, "sh", "-c", READ_ONLY, dir, ...command] : undefined;
}

const READ_ONLY_MOUNTS = (() => {
	const dir = mkdtempSync(join(tmpdir(), "gar-ro-probe-"));
	try {
		const [bin = "unshare", ...args] = UNSHARE;
		const probe = spawnSync(bin, [...args, "sh", "-c", READ_ONLY, dir, "sh", "-c", '! touch "$0/x"', dir]);
		return probe.status === 0;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
})();
