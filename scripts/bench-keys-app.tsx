// The in-process keypress bench's app (bundled by scripts/bench-keys.ts with the build's Ink patches): the real App on
// a fake 120×40 terminal, keys pushed into its stdin one at a time; each key is timed from the push to its first
// write (the typed row's echo, state/input-echo.ts, as in the app) and to the end of its frame, in the same task or a
// later one.
import { render } from "ink";
import Yoga from "yoga-layout";
import { App } from "../src/ui/screens/App.js";
import { InputEcho } from "../src/ui/state/input-echo.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { StoreTheme } from "../src/ui/theme/context.js";
import { initialView } from "../src/view/state.js";
import { FakeStdin, fakeStdout, fakeTtyOptions } from "../test/support/fake-tty.js";

/** Time spent in Yoga's layout and in Ink's renderer since the last reset (what each key costs, by stage). */
export const stages = { layout: 0, render: 0 };
const node = Yoga.Node.prototype as unknown as { calculateLayout: (...args: unknown[]) => void };
const layout = node.calculateLayout;
node.calculateLayout = function (this: unknown, ...args: unknown[]) {
	const t = performance.now();
	layout.apply(this, args);
	stages.layout += performance.now() - t;
};

const COLS = 120;
const ROWS = 40;

/** The end of a frame: Ink's synchronized update closed. */
const FRAME_END = "\x1b[?2026l";

/** Runs `keys` keys `gapMs` apart; returns ms from each push to its first write and to the end of its frame. */
export async function run(
	keys: number,
	gapMs: number,
	chatLines: number,
): Promise<{ ms: number[]; frame: number[]; bytes: number[]; layout: number[]; render: number[] }> {
	let written = "";
	let onWrite: (() => void) | null = null;
	const stdout = fakeStdout(COLS, ROWS, (bytes) => {
		written += bytes;
		onWrite?.();
	});
	const stdin = new FakeStdin();
	const store = new UiStore(initialView({ provider: "openai", model: "bench-model" }));
	for (let i = 0; i < chatLines; i++) {
		store.onEvent({ type: "notice", level: "info", message: `line ${i} of the chat, some words to fill a row` });
	}
	const input = new InputModel();
	input.echo = new InputEcho((bytes) => stdout.write(bytes));
	const info = {
		version: "0.0.0",
		cwd: "~/src/bench",
		branch: "main",
		sessionId: () => null,
		sessionName: () => undefined,
		sessionBranch: () => "–",
		running: () => false,
	};
	const actions = {
		submit: () => {},
		abort: () => {},
		exit: () => {},
		suspend: () => {},
		externalEditor: async () => {},
		pullQueued: () => undefined,
		doubleEscape: () => {},
		openRequest: async () => {},
		openSubagent: async () => {},
	};
	const ink = render(
		<StoreTheme store={store}>
			<App store={store} input={input} info={info} actions={actions} />
		</StoreTheme>,
		{
			...fakeTtyOptions(stdout, stdin),
			onRender: ({ renderTime }: { renderTime: number }) => {
				stages.render += renderTime;
			},
		},
	);
	await new Promise((r) => setTimeout(r, 200));
	const ms: number[] = [];
	const frames: number[] = [];
	const bytes: number[] = [];
	const layouts: number[] = [];
	const renders: number[] = [];
	for (let i = 0; i < keys; i++) {
		await new Promise((r) => setTimeout(r, gapMs));
		const letter = String.fromCharCode(97 + (i % 26));
		written = "";
		let first = 0;
		const seen = new Promise<number>((resolve) => {
			onWrite = () => {
				first ||= performance.now();
				if (written.includes(FRAME_END)) {
					onWrite = null;
					resolve(performance.now());
				}
			};
		});
		stages.layout = 0;
		stages.render = 0;
		const sent = performance.now();
		stdin.push(i % 40 === 39 ? "\u0015" : letter);
		const at = await seen;
		ms.push(first - sent);
		frames.push(at - sent);
		layouts.push(stages.layout);
		renders.push(stages.render);
		await new Promise((r) => setImmediate(r));
		bytes.push(written.length);
	}
	ink.unmount();
	return { ms, frame: frames, bytes, layout: layouts, render: renders };
}
