// `gar -r` and `gar sessions restore` from the built CLI (the picker itself: ui-picker.test.tsx and tui-picker-e2e).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { moveToTrash } from "../src/session/trash.js";
import { runGar, tempHome } from "./support/cli.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

describe("gar -r", () => {
	it("needs a terminal: piped or with -p it says what to use instead (exit 2)", async () => {
		const { project, env } = tempHome();
		for (const args of [["-r"], ["-p", "-r", "parser"], ["-r", "--plain"]]) {
			const run = await runGar(args, { env, cwd: project });
			expect(run.code, args.join(" ")).toBe(2);
			expect(run.stderr).toMatch(/^gar: -r opens the resume picker, which needs a terminal; gar sessions lists/);
		}
	});
});

describe("gar sessions restore", () => {
	it("lists the trash, moves a session back to where it was, and says so when there is nothing to restore", async () => {
		server = await startWireServer(() => ({ text: ["done"], usage: { input: 10, output: 1 } }));
		const { root, project, env } = tempHome();
		const opts = { env: { ...env, OPENAI_API_KEY: "k" }, cwd: project };
		const run = await runGar(["-p", "fix the parser", "--output", "json", "--base-url", server.url], opts);
		const id: string = JSON.parse(run.stdout).sessionId;
		const [listed] = JSON.parse((await runGar(["sessions", "--json"], opts)).stdout);
		expect(listed).toMatchObject({ id, latestPrompt: "fix the parser", branches: 1, labels: [], damaged: 0 });
		expect(listed.model).toBeTypeOf("string");

		const trash = join(root, "data", "gar", "trash");
		expect((await runGar(["sessions", "restore"], opts)).stdout).toBe(`the trash is empty (${trash})\n`);
		moveToTrash(listed.file, trash);
		expect(JSON.parse((await runGar(["sessions", "--json"], opts)).stdout)).toEqual([]);
		const held = await runGar(["sessions", "restore"], opts);
		expect(held.stdout).toMatch(
			new RegExp(`^${id}  deleted \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d  from ${listed.file}\\n`),
		);

		const restored = await runGar(["sessions", "restore", id.slice(0, 6)], opts);
		expect(restored.code).toBe(0);
		expect(restored.stdout).toBe(`restored ${id} to ${listed.file}\n`);
		expect(existsSync(listed.file)).toBe(true);
		expect(readdirSync(trash)).toEqual([]);
		expect(JSON.parse((await runGar(["sessions", "--json"], opts)).stdout)).toHaveLength(1);

		const again = await runGar(["sessions", "restore", id], opts);
		expect(again.code).toBe(2);
		expect(again.stderr).toBe(`gar: no session "${id}" in the trash (${trash}): the trash is empty\n`);
	});
});
