// gar's Headers (src/llm/headers.ts) stands in for the global one inside the SDKs, so a `gar -p` never loads undici.
// It must behave as Node's own: the same operations on both give the same headers, and the same refusals.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Headers as GarHeaders } from "../src/llm/headers.js";
import { runGar, tempHome } from "./support/cli.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

type AnyHeaders = InstanceType<typeof GarHeaders> | globalThis.Headers;
const snapshot = (h: AnyHeaders) => ({
	entries: [...h.entries()],
	get: ["content-type", "X-Many", "set-cookie", "missing"].map((n) => h.get(n)),
	has: ["CONTENT-TYPE", "missing"].map((n) => h.has(n)),
	cookies: h.getSetCookie(),
});

describe("gar's Headers", () => {
	it("gives the same headers as Node's for the same operations", () => {
		const inits = [
			undefined,
			{ "Content-Type": "application/json", "X-Many": "a" },
			[
				["x-many", " b "],
				["X-Many", "c"],
				["Set-Cookie", "a=1"],
				["set-cookie", "b=2"],
			] as [string, string][],
			new globalThis.Headers({ Accept: "text/plain", "x-stainless-helper": "one" }),
		];
		for (const init of inits) {
			const ours = new GarHeaders(init as never);
			const node = new globalThis.Headers(init as never);
			for (const h of [ours, node]) {
				h.append("X-Many", "\tz\t");
				h.set("Zeta", "last");
				h.set("alpha", "first");
				h.delete("ACCEPT");
			}
			expect(snapshot(ours)).toEqual(snapshot(node));
			const seen: string[] = [];
			ours.forEach((value, key) => {
				seen.push(`${key}=${value}`);
			});
			expect(seen).toEqual([...node.entries()].map(([k, v]) => `${k}=${v}`));
		}
	});

	it("refuses what Node's refuses: bad names, and values holding CR, LF or NUL", () => {
		for (const [name, value] of [
			["bad name", "v"],
			["", "v"],
			["x-ok", "a\r\nInjected: 1"],
			["x-ok", "a\0b"],
		] as const) {
			expect(() => new globalThis.Headers().set(name, value)).toThrow(TypeError);
			expect(() => new GarHeaders().set(name, value)).toThrow(TypeError);
		}
	});
});

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

describe.each(["openai", "anthropic"] as const)("gar -p over %s", (provider) => {
	it("runs a tool call without loading undici, nor web streams, nor TLS for an http server", async () => {
		server = await startWireServer([
			{ toolCalls: [{ name: "read", args: { path: "notes.txt" } }], usage: { input: 10, output: 2 } },
			{ text: ["it says hello"], usage: { input: 20, output: 3 } },
		]);
		const { root, project, env } = tempHome();
		writeFileSync(join(project, "notes.txt"), "hello\n");
		const probe = join(root, "probe.mjs");
		writeFileSync(
			probe,
			[
				'import { writeSync } from "node:fs";',
				'const loaded = () => process.moduleLoadList.some((m) => m.includes("undici"));',
				'const tls = () => process.moduleLoadList.includes("NativeModule tls");',
				'const web = () => process.moduleLoadList.includes("NativeModule internal/webstreams/readablestream");',
				'const said = () => ["undici loaded: " + loaded(), "web streams loaded: " + web(), "tls loaded: " + tls()];',
				'process.on("exit", () => writeSync(2, said().join("\\n") + "\\n"));',
			].join("\n"),
		);
		const key = provider === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY";
		const run = await runGar(["-p", "read notes.txt", "--provider", provider, "--base-url", server.url], {
			env: { ...env, [key]: "test-key", NODE_OPTIONS: `--import ${probe}` },
			cwd: project,
		});
		expect(run.stdout.trim()).toBe("it says hello");
		expect(run.stderr).toBe("undici loaded: false\nweb streams loaded: false\ntls loaded: false\n");
		// The probe tells the truth: touching the Headers global does load undici, the ReadableStream global Node's
		// web streams, and https loads TLS.
		const touch = "globalThis.Headers; globalThis.ReadableStream; require('https')";
		const direct = spawnSync(process.execPath, ["--import", probe, "-e", touch], { encoding: "utf8" });
		expect(direct.stderr).toBe("undici loaded: true\nweb streams loaded: true\ntls loaded: true\n");
	});
});
