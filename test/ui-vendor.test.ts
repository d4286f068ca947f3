// dist/ui-vendor.cjs (React, Ink and yoga) loaded through src/ui/vendor.ts with a V8 code cache: each case is a
// fresh node process, as a launch of gar is, so the cache is really written, read, refused and made again.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const BUNDLE = join(ROOT, "dist", "ui-vendor.cjs");
const dir = mkdtempSync(join(tmpdir(), "gar-vendor-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Loads the bundle, draws a line with its Ink into a fake terminal, saves the cache; says how it loaded. */
const CHILD = `
import { locateVendor, saveVendorCache, vendor, vendorLoad } from ${JSON.stringify(join(ROOT, "src/ui/vendor.ts"))};
locateVendor(process.argv[2], process.argv[3] === "-" ? undefined : process.argv[3]);
const { ink, react } = vendor();
let written = "";
const stdout = { columns: 40, rows: 5, isTTY: true, write: (s) => { written += s; return true; }, on() {}, off() {}, removeListener() {} };
const app = ink.render(react.createElement(ink.Box, { borderStyle: "round" }, react.createElement(ink.Text, null, "drawn │ 中文")), { stdout, patchConsole: false });
app.unmount();
saveVendorCache();
console.log(JSON.stringify({ how: vendorLoad(), drawn: written.includes("drawn │ 中文") && written.includes("╭") }));
`;
const child = join(dir, "child.mts");
writeFileSync(child, CHILD);

function launch(cache: string | undefined): { how: string; drawn: boolean } {
	const out = execFileSync(process.execPath, ["--import", "tsx", child, BUNDLE, cache ?? "-"], {
		cwd: ROOT,
		encoding: "utf8",
		env: { ...process.env, NODE_ENV: "production" },
	});
	return JSON.parse(out.trim().split("\n").at(-1) as string);
}

const caches = (cache: string) => readdirSync(cache).filter((name) => name.startsWith("ui-vendor-"));

describe("the UI libraries' code cache", () => {
	it("is made by the first launch and used by the next; the libraries draw either way", () => {
		const cache = join(dir, "first");
		expect(launch(cache)).toEqual({ how: "compiled", drawn: true });
		expect(caches(cache)).toHaveLength(1);
		expect(launch(cache)).toEqual({ how: "cached", drawn: true });
	});

	it("a damaged cache is refused by V8 and made again; nothing is left behind", () => {
		const cache = join(dir, "damaged");
		launch(cache);
		const [name] = caches(cache);
		writeFileSync(join(cache, name as string), "not a code cache");
		expect(launch(cache)).toEqual({ how: "refused", drawn: true });
		expect(launch(cache)).toEqual({ how: "cached", drawn: true });
		expect(readdirSync(cache)).toEqual([name]);
	});

	it("a cache folder that cannot be made only costs the speed", () => {
		const file = join(dir, "a-file");
		writeFileSync(file, "");
		expect(launch(join(file, "gar"))).toEqual({ how: "compiled", drawn: true });
	});

	it("without a cache folder the libraries load and draw", () => {
		expect(launch(undefined)).toEqual({ how: "compiled", drawn: true });
	});
});
