import { describe, expect, it } from "vitest";
import { nearCommand, promptIntent } from "../src/commands/words.js";
import { Interrupts } from "../src/signals.js";
import { editDistance } from "../src/text/distance.js";

const COMMANDS = ["config", "sessions", "show", "tree", "fork", "label", "name", "trust", "untrust", "replay", "help"];

describe("reading the first word", () => {
	it("counts a swap of two letters as one edit", () => {
		expect(editDistance("sesions", "sessions")).toBe(1);
		expect(editDistance("sessoins", "sessions")).toBe(1);
		expect(editDistance("confg", "config")).toBe(1);
	});

	it("takes a close word for the subcommand it misspells, but not a short everyday word", () => {
		expect(nearCommand("sesions", COMMANDS)).toBe("sessions");
		expect(nearCommand("replya", COMMANDS)).toBe("replay");
		expect(nearCommand("hepl", COMMANDS)).toBe("help");
		expect(nearCommand("test", COMMANDS)).toBeUndefined();
		expect(nearCommand("refactor", COMMANDS)).toBeUndefined();
		expect(nearCommand("fix the bug", COMMANDS)).toBeUndefined();
	});

	it("never takes an everyday word for a three-letter command: only the command itself is one", () => {
		const all = [...COMMANDS, "acp", "mcp"];
		for (const word of ["app", "act", "map", "mcq", "cap", "ace"]) expect(nearCommand(word, all)).toBeUndefined();
		expect(nearCommand("acp", all)).toBeUndefined();
	});

	it("knows when the words must be the prompt: after -p or after --", () => {
		const takesValue = (flag: string) => ["--model", "-m", "--output"].includes(flag);
		expect(promptIntent(["-p", "config"], { takesValue })).toEqual({
			literal: false,
			forcePrompt: true,
			first: "config",
		});
		expect(promptIntent(["--model", "x", "-p", "show"], { takesValue })).toEqual({
			literal: false,
			forcePrompt: true,
			first: "show",
		});
		expect(promptIntent(["config", "--json"], { takesValue })).toEqual({
			literal: false,
			forcePrompt: false,
			first: "config",
		});
		expect(promptIntent(["--", "config"], { takesValue })).toEqual({ literal: true, forcePrompt: true });
		expect(promptIntent(["--model", "config", "fix"], { takesValue })).toEqual({
			literal: false,
			forcePrompt: false,
			first: "fix",
		});
	});
});

describe("Interrupts", () => {
	it("keeps a signal that came before anyone listened and hands it to the first listener", () => {
		const exits: number[] = [];
		const interrupts = new Interrupts((code) => exits.push(code));
		interrupts.onSignal("SIGHUP");
		const heard: string[] = [];
		interrupts.listen((signal) => heard.push(signal));
		expect(heard).toEqual(["SIGHUP"]);
		interrupts.onSignal("SIGINT");
		expect(exits).toEqual([130]);
	});

	it("exits at the first signal once released (no run is listening)", () => {
		const exits: number[] = [];
		const interrupts = new Interrupts((code) => exits.push(code));
		interrupts.release();
		interrupts.onSignal("SIGTERM");
		expect(exits).toEqual([130]);
	});
});
