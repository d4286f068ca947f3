import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { darkTheme, lightTheme } from "../src/ui/theme/theme.js";
import { tempHome } from "./support/cli.js";
import { garInTerminal, HAS_TMUX, IN_TMUX, TmuxSession } from "./support/tmux.js";

let tmux: TmuxSession | undefined;
afterEach(() => {
	tmux?.kill();
	tmux = undefined;
});

/**
 * `gar demo ARGS` (no key needed) in tmux with 24-bit colour, in a temp home. `before` runs tmux commands on the new
 * session before gar starts (the app asks the terminal for its background at start-up).
 */
function launch(
	args: string,
	extra: Record<string, string> = {},
	before: string[][] = [],
	prepare: (configDir: string) => void = () => {},
) {
	const { project, env, root } = tempHome();
	prepare(join(root, "config", "gar"));
	const garCmd = garInTerminal({ ...env, COLORTERM: "truecolor", ...extra });
	const wait = before.length > 0 ? "sleep 0.3; " : "";
	const command = `${wait}cd '${project}' && ${garCmd} demo ${args}; sleep 5`;
	const session = TmuxSession.start(command, { columns: 120, rows: 30 });
	for (const tmuxArgs of before) execFileSync("tmux", ["-L", session.name, ...tmuxArgs]);
	tmux = session;
	return { session };
}

/** The screen with its colours (SGR codes as tmux keeps them). */
function colourScreen(session: TmuxSession): string {
	return execFileSync("tmux", ["-L", session.name, "capture-pane", "-e", "-p", "-t", session.name], {
		encoding: "utf8",
	});
}

const ESC = "\x1b";
/** An SGR sequence that sets a colour (8/16, 256 or 24-bit, foreground or background). */
const COLOUR_CODE = new RegExp(`${ESC}\\[(?:[0-9;]*;)?(?:3[0-7]|4[0-7]|9[0-7]|10[0-7]|[34]8;[25];[0-9;]+)m`);
const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(";");
const statusBar = (hex: string) => `48;2;${rgb(hex)}m gar `;

async function waitForColours(session: TmuxSession, test: (screen: string) => boolean): Promise<string> {
	await session.waitFor(/you › The tests fail/);
	const end = Date.now() + 5000;
	let screen = colourScreen(session);
	while (!test(screen) && Date.now() < end) {
		await new Promise((r) => setTimeout(r, 50));
		screen = colourScreen(session);
	}
	return screen;
}

describe.skipIf(!HAS_TMUX)("themes in a real terminal", IN_TMUX, () => {
	it("--theme light draws the light palette", async () => {
		const { session } = launch("--theme light");
		const screen = await waitForColours(session, (s) => s.includes(statusBar(lightTheme.status.bg)));
		expect(screen).toContain(statusBar(lightTheme.status.bg));
		expect(screen).toContain(`38;2;${rgb(lightTheme.user)}`);
		expect(screen).not.toContain(`38;2;${rgb(darkTheme.text)}`);
	});

	it("picks light on a light terminal background (OSC 11), dark otherwise, and keys still reach the app", async () => {
		const light = launch("", {}, [["set-option", "-g", "window-style", "bg=#fdf6e3"]]).session;
		expect(await waitForColours(light, (s) => s.includes(statusBar(lightTheme.status.bg)))).toContain(
			statusBar(lightTheme.status.bg),
		);
		light.type("typed after the query");
		await light.waitFor(/› typed after the query/);
		light.kill();
		const dark = launch("", {}, [["set-option", "-g", "window-style", "bg=#1a1b26"]]).session;
		expect(await waitForColours(dark, (s) => s.includes(statusBar(darkTheme.status.bg)))).toContain(
			statusBar(darkTheme.status.bg),
		);
	});

	it("/theme light recolours everything on screen live; /theme with an unknown name says what there is", async () => {
		const { session } = launch("--theme dark");
		await waitForColours(session, (s) => s.includes(`38;2;${rgb(darkTheme.user)}`));
		session.type("/theme light");
		session.send(["Enter"]);
		const screen = await waitForColours(
			session,
			(s) => s.includes(statusBar(lightTheme.status.bg)) && !s.includes(`38;2;${rgb(darkTheme.user)}`),
		);
		expect(screen).toContain(statusBar(lightTheme.status.bg));
		// The chat lines drawn before the switch ("you › …") are in the light colours now.
		expect(screen).toContain(`38;2;${rgb(lightTheme.user)}`);
		expect(screen).not.toContain(`38;2;${rgb(darkTheme.user)}`);
		expect(session.screen()).toContain("• theme: light");
		session.type("/theme nope");
		session.send(["Enter"]);
		await session.waitFor(/no theme "nope"; there are dark, light, mono/);
		expect(colourScreen(session)).toContain(statusBar(lightTheme.status.bg));
	});

	it("NO_COLOR: no colours, the status bar in inverse", async () => {
		const { session } = launch("", { NO_COLOR: "1" });
		await session.waitFor(/▸ bash node test\.js/);
		const screen = colourScreen(session);
		expect(screen).not.toMatch(COLOUR_CODE);
		expect(screen).toContain("\x1b[7m gar ");
	});

	it("[tui] theme names a user theme; a bad key is named in a notice and dark is used", async () => {
		const { session } = launch("", {}, [], (configDir) => {
			mkdirSync(join(configDir, "themes"), { recursive: true });
			writeFileSync(join(configDir, "config.toml"), '[tui]\ntheme = "mine"\n');
			writeFileSync(
				join(configDir, "themes", "mine.json"),
				JSON.stringify({ extends: "light", diff: { added: "#ggg" } }),
			);
		});
		const screen = await session.waitFor(/theme "mine": diff\.added: "#ggg" is not a colour/);
		expect(screen).toContain("using the dark theme");
	});

	it("[tui] theme switches to a good user theme once the config is read", async () => {
		const { session } = launch("", {}, [], (configDir) => {
			mkdirSync(join(configDir, "themes"), { recursive: true });
			writeFileSync(join(configDir, "config.toml"), '[tui]\ntheme = "mine"\n');
			writeFileSync(join(configDir, "themes", "mine.json"), JSON.stringify({ extends: "light", user: "#ff0000" }));
		});
		const screen = await waitForColours(session, (s) => s.includes("38;2;255;0;0"));
		expect(screen).toContain("38;2;255;0;0");
		expect(screen).toContain(statusBar(lightTheme.status.bg));
	});
});
