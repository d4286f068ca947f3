// The start script's cache files (src/boot-cache.ts): what is read back is exactly what was written for this build,
// and anything else is refused (and deleted) without blocking. test/boot.test.ts shows the same with real V8 caches.
import { execFileSync } from "node:child_process";
import {
	chmodSync,
	existsSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { type CacheCheck, cacheFolder, readCache, writeCache } from "../src/boot-cache.js";

const check: CacheCheck = { hash: "0123456789abcdef", checksum: crc32 };
const DATA = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 37) & 0xff));
const TAGS = ["provider:openai", "tool:read"];

/** A fresh cache folder with one cache of DATA in it. */
function written(): { dir: string; file: string; bytes: Buffer } {
	const dir = join(mkdtempSync(join(tmpdir(), "gar-boot-cache-")), "cache", "gar");
	const file = join(dir, "code-test.v8");
	writeCache(file, check, DATA, TAGS);
	return { dir, file, bytes: readFileSync(file) };
}

describe("code cache files", () => {
	it("reads back what was written, in a folder and a file only the user may change, with no file left over", () => {
		const { dir, file } = written();
		expect(readCache(file, check)).toEqual({ data: DATA, tags: TAGS });
		expect(statSync(dir).mode & 0o777).toBe(0o700);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(readdirSync(dir)).toEqual(["code-test.v8"]);
		expect(cacheFolder(dir)).toBe("ok");
	});

	it("refuses and deletes a cache with any single bit flipped: header, data or tags", () => {
		const { file, bytes } = written();
		for (let bit = 0; bit < bytes.length * 8; bit++) {
			const damaged = Buffer.from(bytes);
			const index = bit >> 3;
			damaged.writeUInt8(damaged.readUInt8(index) ^ (1 << (bit & 7)), index);
			writeFileSync(file, damaged);
			if (readCache(file, check) !== undefined) throw new Error(`bit ${bit} flipped was not noticed`);
			expect(existsSync(file)).toBe(false);
		}
	});

	it("refuses a zeroed tail, a short or a long file, and a cache of another bundle", () => {
		const { file, bytes } = written();
		const zeroed = Buffer.from(bytes).fill(0, bytes.length - 64);
		for (const damaged of [zeroed, bytes.subarray(0, bytes.length - 1), Buffer.concat([bytes, Buffer.from([0])])]) {
			writeFileSync(file, damaged);
			expect(readCache(file, check)).toBeUndefined();
			expect(existsSync(file)).toBe(false);
		}
		writeFileSync(file, bytes);
		expect(readCache(file, { ...check, hash: "fedcba9876543210" })).toBeUndefined();
		expect(existsSync(file)).toBe(false);
	});

	it("refuses a FIFO at once, a link and a file others may write to, and deletes them (not what a link points at)", () => {
		const { dir, file, bytes } = written();
		writeFileSync(file, bytes);
		chmodSync(file, 0o666);
		expect(readCache(file, check)).toBeUndefined();
		expect(existsSync(file)).toBe(false);

		const elsewhere = join(dir, "..", "elsewhere.v8");
		writeFileSync(elsewhere, bytes, { mode: 0o600 });
		symlinkSync(elsewhere, file);
		expect(readCache(file, check)).toBeUndefined();
		expect(existsSync(file)).toBe(false);
		expect(readFileSync(elsewhere)).toEqual(bytes);

		execFileSync("mkfifo", [file]);
		expect(readCache(file, check)).toBeUndefined(); // a read would wait for a writer forever
		expect(existsSync(file)).toBe(false);
		expect(readCache(file, check)).toBeUndefined(); // and nothing there is no error
	});

	it("refuses a folder others may write to, a link to a folder, and a file where the folder should be", () => {
		const { dir, file } = written();
		chmodSync(dir, 0o777);
		expect(cacheFolder(dir)).toBe("refused");
		const other = join(dir, "..", "other", "gar");
		writeCache(join(other, "code-test.v8"), check, DATA);
		chmodSync(other, 0o775);
		writeCache(join(other, "code-new.v8"), check, DATA);
		expect(readdirSync(other)).toEqual(["code-test.v8"]); // nothing is written in such a folder
		const link = join(dir, "..", "link");
		symlinkSync(dir, link);
		expect(cacheFolder(link)).toBe("refused");
		const notFolder = join(dir, "..", "file");
		writeFileSync(notFolder, "");
		expect(cacheFolder(notFolder)).toBe("refused");
		expect(cacheFolder(join(dir, "..", "missing"))).toBe("missing");
		mkdirSync(join(dir, "..", "made"), { mode: 0o700 });
		expect(cacheFolder(join(dir, "..", "made"))).toBe("ok");
		expect(lstatSync(file).isFile()).toBe(true);
	});
});
