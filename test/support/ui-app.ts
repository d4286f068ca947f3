// What the app's ink-testing-library tests share: waiting for a frame, and the status bar's facts of a test app.
import type { AppInfo } from "../../src/ui/screens/App.js";

/** One turn of the event loop: ink-testing-library draws a key's frame a tick after `stdin.write`. */
export const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Waits until `test` holds (a screen's own React state is drawn a pass after the key). */
export async function until(test: () => boolean, ms = 3000): Promise<void> {
	const end = Date.now() + ms;
	while (!test()) {
		if (Date.now() > end) throw new Error("timed out");
		await new Promise((r) => setTimeout(r, 5));
	}
}

/** The app's facts for a test: gar 0.1.0 in ~/project, no git branch, no session, idle; `over` changes any of them. */
export function appInfo(over: Partial<AppInfo> = {}): AppInfo {
	return {
		version: "0.1.0",
		cwd: "~/project",
		branch: null,
		sessionId: () => null,
		sessionName: () => undefined,
		sessionBranch: () => "–",
		running: () => false,
		...over,
	};
}
