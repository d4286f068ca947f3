import * as nodeFs from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { randomHex } from "../text/digest.js";

/** The fs calls an atomic write makes; tests inject failures through this instead of mocking modules. */
export type AtomicFs = Pick<
	typeof nodeFs,
	| "openSync"
	| "writeSync"
	| "fsyncSync"
	| "fchmodSync"
	| "fchownSync"
	| "closeSync"
	| "renameSync"
	| "unlinkSync"
	| "lstatSync"
	| "readlinkSync"
	| "statSync"
>;

/** Symlink hops followed before giving up (Linux's own limit). */
const MAX_LINKS = 40;

/**
 * The path a write to `path` must replace: follows symlinks on the last component (a dangling link gives the
 * path it points to), so a rename replaces the link's target and never the link itself.
 */
export function resolveLinks(path: string, fs: AtomicFs = nodeFs): string {
	let p = resolve(path);
	for (let hops = 0; hops <= MAX_LINKS; hops++) {
		let isLink: boolean;
		try {
			isLink = fs.lstatSync(p).isSymbolicLink();
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return p;
			throw error;
		}
		if (!isLink) return p;
		p = resolve(dirname(p), fs.readlinkSync(p, "utf8"));
	}
	throw Object.assign(new Error(`too many levels of symbolic links: ${path}`), { code: "ELOOP" });
}

/**
 * Replaces the file at `path` with `bytes` atomically: writes a temp file in the same folder, fsyncs it and
 * renames it over the target, so a crash, a kill or a full disk leaves the old bytes or the new ones, never a
 * mix. Writes through symlinks; keeps an existing file's mode (and owner when allowed; new files get `newMode`,
 * default 0o666, less the umask). On failure the target is untouched, the temp file removed, and the error rethrown.
 */
export function writeFileAtomic(path: string, bytes: Uint8Array, fs: AtomicFs = nodeFs, newMode = 0o666): void {
	const target = resolveLinks(path, fs);
	let old: nodeFs.Stats | null = null;
	try {
		old = fs.statSync(target);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
	}
	if (old && !old.isFile()) {
		throw Object.assign(new Error(`${target} is not a regular file`), {
			code: old.isDirectory() ? "EISDIR" : "EINVAL",
		});
	}
	const temp = join(dirname(target), `.${basename(target)}.gar-${randomHex(6)}.tmp`);
	let fd: number | null = fs.openSync(temp, "wx", newMode);
	try {
		for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
		if (old) {
			try {
				fs.fchownSync(fd, old.uid, old.gid);
			} catch {
				// Only root may give a file away; keeping the mode is what matters to the user.
			}
			// After chown, which clears set-user-ID bits.
			fs.fchmodSync(fd, old.mode & 0o7777);
		}
		fs.fsyncSync(fd);
		fs.closeSync(fd);
		fd = null;
		fs.renameSync(temp, target);
	} catch (error) {
		if (fd !== null) {
			try {
				fs.closeSync(fd);
			} catch {}
		}
		try {
			fs.unlinkSync(temp);
		} catch {}
		throw error;
	}
	syncFolder(dirname(target), fs);
}

/** Makes the rename itself durable; best effort (some file systems refuse fsync on a folder). */
function syncFolder(dir: string, fs: AtomicFs): void {
	try {
		const fd = fs.openSync(dir, "r");
		try {
			fs.fsyncSync(fd);
		} finally {
			fs.closeSync(fd);
		}
	} catch {}
}
