import chalk from "chalk";
import { render } from "ink-testing-library";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { App, type AppInfo } from "../src/ui/screens/App.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { StoreTheme } from "../src/ui/theme/context.js";
import { darkTheme, lightTheme, monoTheme } from "../src/ui/theme/theme.js";
import { reduce } from "../src/view/reducer.js";
import { initialView } from "../src/view/state.js";
import { MODEL, PROVIDER, twoTurnRun } from "./fixtures/session/run.js";

// Colours only show when chalk thinks the terminal has them; tests run without one.
const level = chalk.level;
beforeAll(async () => {
	chalk.level = 3;
	await loadMarkdown();
});
afterAll(() => {
	chalk.level = level;
});

const tick = () => new Promise((resolve) => setImmediate(resolve));
const info: AppInfo = {
	version: "0.1.0",
	cwd: "~/project",
	branch: "main",
	sessionId: () => "k3v9q0x2m7ab",
	sessionName: () => undefined,
	sessionBranch: () => "1 of 1",
	running: () => false,
};
const noop = { submit: () => {}, abort: () => {}, exit: () => {} };

/** The SGR code chalk writes for a hex foreground colour. */
const fg = (hex: string) => {
	const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
	return `\x1b[38;2;${r};${g};${b}m`;
};
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for colour escape codes is the point.
const COLOUR_CODE = /\x1b\[(?:3[0-7]|4[0-7]|9[0-7]|10[0-7]|[34]8;[25];[\d;]+)m/;

function app(store: UiStore) {
	return render(
		<StoreTheme store={store}>
			<App store={store} input={new InputModel()} info={info} actions={noop} size={{ columns: 120, rows: 30 }} />
		</StoreTheme>,
	);
}

function conversation(): UiStore {
	let view = initialView({ provider: PROVIDER, model: MODEL });
	for (const [i, event] of twoTurnRun().entries()) view = reduce(view, event, 1000 * i);
	return new UiStore(view);
}

describe("themes on screen", () => {
	it("draws in the theme's colours", () => {
		const store = conversation();
		const { lastFrame, unmount } = app(store);
		const frame = lastFrame() ?? "";
		expect(frame).toContain(fg(darkTheme.user));
		expect(frame).toContain(fg(darkTheme.text));
		unmount();
	});

	it("mono (NO_COLOR) writes no colour codes, and keeps bold and the inverse status bar", () => {
		const store = conversation();
		store.setTheme(monoTheme);
		const { lastFrame, unmount } = app(store);
		const frame = lastFrame() ?? "";
		expect(frame).toContain("List the files");
		expect(frame).not.toMatch(COLOUR_CODE);
		expect(frame.split("\n")[0]?.startsWith("\x1b[7m gar 0.1.0")).toBe(true);
		expect(frame).toContain("\x1b[1m");
		unmount();
	});

	it("a live switch recolours what is already on screen, chat lines included", async () => {
		const store = conversation();
		const { lastFrame, unmount } = app(store);
		expect(lastFrame()).toContain(fg(darkTheme.user));
		store.setTheme(lightTheme);
		await tick();
		const frame = lastFrame() ?? "";
		// The chat's cached lines, the inspector and the status bar: nothing keeps a dark colour.
		for (const token of [darkTheme.user, darkTheme.text, darkTheme.muted, darkTheme.inspector.label]) {
			expect(frame).not.toContain(fg(token));
		}
		expect(frame).toContain(fg(lightTheme.user));
		expect(frame).toContain(fg(lightTheme.text));
		expect(frame).toContain(fg(lightTheme.inspector.label));
		store.setTheme(darkTheme);
		await tick();
		expect(lastFrame()).toContain(fg(darkTheme.user));
		expect(lastFrame()).not.toContain(fg(lightTheme.user));
		unmount();
	});
});
