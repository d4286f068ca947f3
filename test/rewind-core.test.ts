import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { rewind } from "../src/rewind/rewind.js";
import { type RewindWorld, rewindWorld } from "./support/rewind-world.js";

let world: RewindWorld | undefined;
afterEach(async () => {
	await world?.close();
	world = undefined;
});

describe("rewind (core)", () => {
	it("restores and removes", async () => {
		world = await rewindWorld();
		const { project } = world;
		writeFileSync(join(project, "old.txt"), "one\ntwo\n");
		const first = await world.turn(
			"make notes",
			[{ name: "write", args: { path: "new.txt", content: "a\nb\n" } }],
			[{ name: "edit", args: { path: "old.txt", edits: [{ oldText: "two", newText: "TWO" }] } }],
		);
		expect(readFileSync(join(project, "old.txt"), "utf8")).toBe("one\nTWO\n");
		rewind(world.writer(), { mode: "both", to: first.parentId });
		expect(readFileSync(join(project, "old.txt"), "utf8")).toBe("one\ntwo\n");
	});
});
