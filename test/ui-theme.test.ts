import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { UiStore } from "../src/ui/state/store.js";
import {
	backgroundOf,
	colorFgBgHint,
	earlyTerminal,
	parseBackgroundReply,
	queryBackground,
} from "../src/ui/terminal/background.js";
import { configuredTheme, startTheme } from "../src/ui/theme/start.js";
import { darkTheme, lightTheme, mapColors, monoTheme, type Theme } from "../src/ui/theme/theme.js";
import { loadTheme, parseTheme, switchTheme, themeFileSchema, themeNames } from "../src/ui/theme/themes.js";
import { initialView } from "../src/view/state.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();
const file = (name: string) => JSON.parse(readFileSync(new URL(`../themes/${name}.json`, import.meta.url), "utf8"));
const { name: _name, ...darkTokens } = darkTheme;

/** A config dir with user themes in `themes/`. */
function configDir(themes: Record<string, unknown>): string {
	const dir = tmp();
	mkdirSync(join(dir, "themes"));
	for (const [name, body] of Object.entries(themes)) {
		writeFileSync(join(dir, "themes", `${name}.json`), typeof body === "string" ? body : JSON.stringify(body));
	}
	return dir;
}

/** Every colour of a theme, flattened. */
const colours = (theme: Theme) => {
	const out: string[] = [];
	mapColors(theme, (c) => {
		out.push(c);
		return c;
	});
	return out;
};

describe("built-in themes", () => {
	it("ship as complete theme files, dark as it always was", () => {
		for (const name of ["dark", "light"]) expect(themeFileSchema.safeParse(file(name)).success).toBe(true);
		expect(file("dark")).toEqual(darkTokens);
		expect({ ...file("light"), name: "light" }).toEqual(lightTheme);
		expect(colours(lightTheme)).not.toContain("");
	});

	it("mono has no colour at all", () => {
		expect(new Set(colours(monoTheme))).toEqual(new Set([""]));
	});
});

describe("theme validation", () => {
	it("names each bad key by its path", () => {
		const bad = {
			...darkTokens,
			diff: { ...darkTokens.diff, added: "#ggg" },
			acent: "red",
			text: 12,
			code: { ...darkTokens.code, keyword: undefined, bold: "#ffffff" },
			status: "grey",
		};
		const result = parseTheme("mine", JSON.parse(JSON.stringify(bad)));
		expect("problems" in result && result.problems.sort()).toEqual(
			[
				'diff.added: "#ggg" is not a colour (use #rrggbb or a colour name)',
				"acent: not a theme token",
				"text: 12 is not a colour (use #rrggbb or a colour name)",
				"code.keyword: missing",
				"code.bold: not a theme token",
				"status: expected an object of colours",
			].sort(),
		);
	});

	it("a theme that extends a built-in sets only what it changes; `default` is the terminal's colour", () => {
		const result = parseTheme("mine", {
			extends: "light",
			accent: "#d20f39",
			diff: { added: "green" },
			text: "default",
		});
		expect(result).toEqual({
			theme: { ...lightTheme, name: "mine", accent: "#d20f39", diff: { ...lightTheme.diff, added: "green" }, text: "" },
		});
		const wrong = parseTheme("mine", { extends: "solarized", muted: "nope" });
		expect("problems" in wrong && wrong.problems).toEqual([
			'extends: "solarized" is not a built-in theme (dark, light, mono)',
			'muted: "nope" is not a colour (use #rrggbb or a colour name)',
		]);
	});

	it("a theme without `extends` must set every token", () => {
		const result = parseTheme("mine", { accent: "#ffffff" });
		expect("problems" in result && result.problems).toContain("text: missing");
		expect("problems" in result && result.problems).toContain("diff: missing");
		expect(parseTheme("mine", [1, 2])).toEqual({ problems: ["expected a JSON object of theme tokens"] });
	});
});

describe("loadTheme", () => {
	it("finds built-ins and user themes in the config dir's themes/", () => {
		const dir = configDir({ mine: { extends: "dark", accent: "magenta" }, full: { ...darkTokens, text: "#000000" } });
		expect(loadTheme("light", { configDir: dir })).toEqual({ theme: lightTheme });
		expect(loadTheme("mine", { configDir: dir })).toEqual({ theme: { ...darkTheme, name: "mine", accent: "magenta" } });
		expect(loadTheme("full", { configDir: dir }).theme.text).toBe("#000000");
		expect(themeNames(dir)).toEqual(["dark", "light", "mono", "full", "mine"]);
		expect(themeNames(join(dir, "nowhere"))).toEqual(["dark", "light", "mono"]);
	});

	it("falls back to dark with a warning naming the bad key", () => {
		const dir = configDir({ mine: { extends: "light", diff: { added: "#ggg" } }, broken: "{ not json" });
		expect(loadTheme("mine", { configDir: dir })).toEqual({
			theme: darkTheme,
			warning: 'theme "mine": diff.added: "#ggg" is not a colour (use #rrggbb or a colour name); using the dark theme',
		});
		const broken = loadTheme("broken", { configDir: dir });
		expect(broken.theme).toBe(darkTheme);
		expect(broken.warning).toMatch(/^theme "broken": .*broken\.json is not valid JSON: .*; using the dark theme$/);
	});

	it("an unknown name (or a path) lists the themes there are", () => {
		const dir = configDir({ mine: { extends: "dark" } });
		for (const name of ["nope", "../mine", "themes/mine"]) {
			const { theme, warning } = loadTheme(name, { configDir: dir });
			expect(theme).toBe(darkTheme);
			expect(warning).toContain(`no theme "${name}"; there are dark, light, mono, mine (your own: NAME.json in `);
		}
	});

	it("a missing theme's notice lists at most five names, the closest to what was asked first", () => {
		const names = ["dracula", "nord", "solarized", "gruvbox", "monokai", "catppuccin", "tokyo", "ayu", "onedark"];
		const dir = configDir(Object.fromEntries(names.map((n) => [n, { extends: "dark" }])));
		const { warning } = loadTheme("dracla", { configDir: dir });
		expect(warning).toMatch(
			/^no theme "dracla"; there are 12, such as dracula, dark, ayu, light, mono \(\/theme then Tab lists them all; your own: NAME\.json in .*themes\); using the dark theme$/,
		);
	});

	it("/theme switches the store live, or keeps the theme and says what is wrong", () => {
		const dir = configDir({ mine: { extends: "dark", accent: "red" } });
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		let redraws = 0;
		store.subscribe(() => redraws++);
		expect(switchTheme(store, "light", { configDir: dir })).toBeNull();
		expect(store.theme).toBe(lightTheme);
		expect(redraws).toBe(1);
		expect(switchTheme(store, "nope", { configDir: dir })).toMatch(
			/^no theme "nope"; there are dark, light, mono, mine/,
		);
		expect(store.theme).toBe(lightTheme);
		expect(switchTheme(store, "mine", { configDir: dir })).toBeNull();
		expect(store.theme.accent).toBe("red");
	});
});

describe("the start-up theme", () => {
	it("NO_COLOR (not empty) gives mono unless --theme names one", async () => {
		expect((await startTheme(undefined, { NO_COLOR: "1" })).theme).toBe(monoTheme);
		expect((await startTheme(undefined, { NO_COLOR: "" })).theme).toBe(darkTheme);
		expect((await startTheme("light", { NO_COLOR: "1" })).theme).toBe(lightTheme);
	});

	it("follows the terminal's answer to the background query, which beats COLORFGBG", async () => {
		expect((await startTheme(undefined, {}, Promise.resolve("light"))).theme).toBe(lightTheme);
		expect((await startTheme(undefined, { COLORFGBG: "0;15" }, Promise.resolve("dark"))).theme).toBe(darkTheme);
		expect((await startTheme(undefined, { COLORFGBG: "0;15" }, Promise.resolve(undefined))).theme).toBe(lightTheme);
	});

	it("without an answer from the terminal, COLORFGBG hints, else dark", async () => {
		expect((await startTheme(undefined, { COLORFGBG: "0;15" })).theme).toBe(lightTheme);
		expect((await startTheme(undefined, { COLORFGBG: "15;default;0" })).theme).toBe(darkTheme);
		expect((await startTheme(undefined, {})).theme).toBe(darkTheme);
		expect(colorFgBgHint({ COLORFGBG: "7;x" })).toBeUndefined();
		expect(colorFgBgHint({ COLORFGBG: "0;7" })).toBe("light");
		expect(colorFgBgHint({ COLORFGBG: "15;8" })).toBe("dark");
	});

	it("--theme with a user theme loads its file; a bad one gives dark and a warning", async () => {
		const xdg = tmp();
		mkdirSync(join(xdg, "gar", "themes"), { recursive: true });
		writeFileSync(join(xdg, "gar", "themes", "mine.json"), JSON.stringify({ extends: "light", accent: "blue" }));
		const env = { XDG_CONFIG_HOME: xdg };
		expect((await startTheme("mine", env)).theme.accent).toBe("blue");
		expect(await startTheme("nope", env)).toMatchObject({ theme: darkTheme, warning: /no theme "nope"/ });
	});

	it("[tui] theme applies after the config loads unless --theme was given or it says auto", async () => {
		expect(await configuredTheme(undefined, "auto", {})).toBeUndefined();
		expect(await configuredTheme("dark", "light", {})).toBeUndefined();
		expect(await configuredTheme(undefined, "light", {})).toEqual({ theme: lightTheme });
	});
});

/** A stdin that claims to be a terminal, recording raw mode. */
function fakeTerminal() {
	const stdin = new PassThrough() as PassThrough & {
		isTTY: boolean;
		isRaw: boolean;
		setRawMode: (on: boolean) => void;
	};
	stdin.isTTY = true;
	stdin.isRaw = false;
	stdin.setRawMode = (on: boolean) => {
		stdin.isRaw = on;
	};
	const written: string[] = [];
	const stdout = { isTTY: true, write: (data: string) => written.push(data) };
	return {
		stdin,
		stdout: stdout as unknown as NodeJS.WriteStream,
		written,
		query: (timeoutMs = 100) =>
			queryBackground(stdin as unknown as NodeJS.ReadStream, stdout as unknown as NodeJS.WriteStream, timeoutMs),
	};
}

describe("the terminal's background (OSC 11)", () => {
	it("parses replies ended by BEL or ST, with 1 to 4 hex digits a channel", () => {
		expect(parseBackgroundReply("\x1b]11;rgb:ffff/ffff/ffff\x1b\\")).toEqual({ r: 1, g: 1, b: 1 });
		expect(parseBackgroundReply("\x1b]11;rgb:00/80/ff\x07")).toEqual({ r: 0, g: 128 / 255, b: 1 });
		expect(parseBackgroundReply("\x1b]11;rgb:1a1a/1b1b/2626")).toBeUndefined();
		expect(backgroundOf(parseBackgroundReply("\x1b]11;rgb:1a1b/1b1b/2626\x07") ?? { r: 0, g: 0, b: 0 })).toBe("dark");
		expect(backgroundOf({ r: 0.99, g: 0.96, b: 0.89 })).toBe("light");
		expect(backgroundOf({ r: 0.5, g: 0.5, b: 0.5 })).toBe("light");
		expect(backgroundOf({ r: 0.3, g: 0.3, b: 0.3 })).toBe("dark");
	});

	it("asks in raw mode, reads a reply split across chunks, and ends at the DA1 reply", async () => {
		const { stdin, written, query } = fakeTerminal();
		const answer = query(5000);
		expect(written.join("")).toBe("\x1b]11;?\x1b\\\x1b[c");
		expect(stdin.isRaw).toBe(true);
		stdin.write("\x1b]11;rgb:f");
		await new Promise((r) => setTimeout(r, 5));
		stdin.write("fff/ffff/ff");
		stdin.write("ff\x1b\\\x1b[?1;2");
		await new Promise((r) => setTimeout(r, 5));
		stdin.write("c");
		const started = Date.now();
		expect(await answer).toBe("light");
		expect(Date.now() - started).toBeLessThan(1000);
		expect(stdin.isRaw).toBe(false);
		expect(stdin.listenerCount("readable")).toBe(0);
	});

	it("a terminal that answers only DA1 ends the wait at once: no answer", async () => {
		const { stdin, query } = fakeTerminal();
		const answer = query(5000);
		stdin.write("\x1b[?62;22c");
		expect(await answer).toBeUndefined();
	});

	it("gives up after the timeout, and keys typed meanwhile stay for the app to read", async () => {
		const { stdin, query } = fakeTerminal();
		const started = Date.now();
		const answer = query(50);
		stdin.write("ab");
		expect(await answer).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(45);
		expect(String(stdin.read())).toBe("ab");
	});

	it("keys typed around the replies are kept, the replies are not", async () => {
		const { stdin, query } = fakeTerminal();
		const answer = query(5000);
		stdin.write("x\x1b]11;rgb:0000/0000/0000\x07y\x1b[?1;2cz");
		expect(await answer).toBe("dark");
		expect(String(stdin.read())).toBe("xyz");
	});

	it("the app's terminal is raw from the query on, and stays so after it: keys typed meanwhile are the app's", async () => {
		const { stdin, stdout, written } = fakeTerminal();
		const answer = earlyTerminal(undefined, {}, stdin as unknown as NodeJS.ReadStream, stdout);
		expect(stdin.isRaw).toBe(true);
		stdin.write("ab");
		stdin.write("\x1b]11;rgb:0000/0000/0000\x07\x1b[?62c");
		expect(await answer).toBe("dark");
		// Ctrl+U typed now reaches the app: the terminal's line mode would have taken it.
		expect(stdin.isRaw).toBe(true);
		expect(String(stdin.read())).toBe("ab");
		// Without a query (a named theme, NO_COLOR) the keys are raw all the same.
		const named = fakeTerminal();
		expect(earlyTerminal("light", {}, named.stdin as unknown as NodeJS.ReadStream, named.stdout)).toBeUndefined();
		expect(named.stdin.isRaw).toBe(true);
		expect(named.written).toEqual([]);
		expect(written.join("")).toBe("\x1b]11;?\x1b\\\x1b[c");
	});

	it("does nothing outside a terminal", async () => {
		const stdin = new PassThrough() as unknown as NodeJS.ReadStream;
		const stdout = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;
		expect(await queryBackground(stdin, stdout, 10)).toBeUndefined();
	});
});
