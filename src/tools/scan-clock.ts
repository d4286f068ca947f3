import { closeSync, fstatSync, futimesSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** How long `tick` waits at most for the file system's clock to move (a coarse clock moves every 1 to 10 ms). */
const MAX_WAIT_MS = 50;

/**
 * The file system's own clock, read through the status-change time (ctime) of a file of gar's: a file opened and
 * unlinked at once, so nothing is left behind, even after a crash. Its ctime comes from the kernel clock every local
 * file system stamps changes with, so "changed after a tick" is a comparison of the kernel's own times.
 */
export class FsClock {
	private fd: number | null = null;

	private open(): number {
		if (this.fd !== null) return this.fd;
		const dir = mkdtempSync(join(tmpdir(), "gar-clock-"));
		try {
			this.fd = openSync(join(dir, "tick"), "w", 0o600);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
		return this.fd;
	}

	private bump(fd: number): number {
		const now = new Date();
		futimesSync(fd, now, now);
		return fstatSync(fd).ctimeMs;
	}

	/**
	 * A time T of the file system's clock such that every change made before this call has a ctime below T and every
	 * change made after it has a ctime of T or more: stamps twice, until the clock has moved between the two.
	 */
	tick(): number {
		const fd = this.open();
		const first = this.bump(fd);
		const until = performance.now() + MAX_WAIT_MS;
		let next = this.bump(fd);
		while (next <= first && performance.now() < until) next = this.bump(fd);
		return next;
	}

	close(): void {
		if (this.fd !== null) closeSync(this.fd);
		this.fd = null;
	}
}
