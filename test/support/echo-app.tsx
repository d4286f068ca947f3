// The real App with the typed row's echo (src/ui/state/input-echo.ts) on a 60×16 test terminal, bundled by
// test/ui-input-echo.test.tsx with the build's Ink patches, as the app runs. Each key is pushed into stdin; the screen
// right after the echo's write (when there is one) is kept with the screen once the key's frame is drawn.
import { render } from "ink";
import { App } from "../../src/ui/screens/App.js";
import { InputEcho } from "../../src/ui/state/input-echo.js";
import { InputModel } from "../../src/ui/state/input-model.js";
import { UiStore } from "../../src/ui/state/store.js";
import { initialView } from "../../src/view/state.js";
import { FakeStdin, fakeStdout, fakeTtyOptions } from "./fake-tty.js";
import { TerminalScreen } from "./terminal-screen.js";
import { appInfo, until } from "./ui-app.js";

const COLUMNS = 60;
const ROWS = 16;
const FRAME_END = "\x1b[?2026l";

/** Per key: the first write when it was an echo, the screen after it, and the screen after the key's frame. */
export type Echoed = { key: string; echo: string | null; afterEcho: string[] | null; afterFrame: string[] };

export async function typeKeys(keys: string[]): Promise<{ keys: Echoed[]; lines: string[] }> {
	const screen = new TerminalScreen(COLUMNS, ROWS);
	let writes: string[] = [];
	const stdout = fakeStdout(COLUMNS, ROWS, (bytes) => {
		writes.push(bytes);
		screen.write(bytes);
	});
	const stdin = new FakeStdin();
	const store = new UiStore(initialView({ provider: "openai", model: "m" }));
	const input = new InputModel();
	input.echo = new InputEcho((bytes) => stdout.write(bytes));
	const actions = { submit: () => {}, abort: () => {}, exit: () => {} };
	const ink = render(
		<App store={store} input={input} info={appInfo()} actions={actions} />,
		fakeTtyOptions(stdout, stdin),
	);
	try {
		await until(() => screen.lines().some((line) => line.includes("Enter send")));
		const typed: Echoed[] = [];
		for (const key of keys) {
			writes = [];
			stdin.push(key);
			const echo = writes[0]?.startsWith("\x1b7") ? writes[0] : null;
			const afterEcho = echo ? screen.snapshot() : null;
			await until(() => writes.some((bytes) => bytes.includes(FRAME_END))).catch(() => {
				throw new Error(`no frame after ${JSON.stringify(key)}: ${JSON.stringify(writes)}`);
			});
			typed.push({ key, echo, afterEcho, afterFrame: screen.snapshot() });
		}
		return { keys: typed, lines: screen.lines() };
	} finally {
		ink.unmount();
	}
}
