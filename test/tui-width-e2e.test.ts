// Characters whose width terminals disagree on, in a real terminal: gar measures what it draws as tmux draws it, and
// a screen full of them keeps its layout.
import { afterEach, describe, expect, it } from "vitest";
import stringWidth, { terminalForm } from "../src/term/string-width.js";
import { tempHome } from "./support/cli.js";
import { garInTerminal, HAS_TMUX, IN_TMUX, TmuxSession } from "./support/tmux.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
	tmux?.kill();
	tmux = undefined;
	await server?.close();
	server = undefined;
});

/** Hangul fillers and lone jamo, the soft hyphen, emoji with selectors, skin tones and ZWJ, a lone regional
 * indicator, symbols wide since Unicode 16, an emoji newer than Unicode 14, zero-width spaces and an Indic conjunct. */
const TRICKY = [
	"\u115f",
	"\u3164",
	"\uffa0",
	"\u1160",
	"\u1161",
	"\u11a8",
	"\u115f\u1161",
	"\u00ad",
	"⚠️",
	"❤️",
	"1️⃣",
	"👍🏽",
	"👨‍👩‍👧",
	"🏳️‍🌈",
	"🇺",
	"☰",
	"🩷",
	"a\u200bb",
	"\ufe0f",
	"क्षि",
	"한",
	"\u1100\u1161\u11a8",
	"日本",
	"🇯🇵",
	"é",
];

describe.skipIf(!HAS_TMUX)("widths in a real terminal", IN_TMUX, () => {
	it("draws each character in a form tmux gives exactly the columns gar measured", async () => {
		const drawn = TRICKY.map((text) => `x${terminalForm(text)}`);
		const columns = await TmuxSession.columns(drawn);
		expect(TRICKY.map((text, i) => [text, columns[i]])).toEqual(TRICKY.map((text) => [text, 1 + stringWidth(text)]));
	});

	it("keeps the layout of a screen full of them: every row's inspector border in its column, nothing wrapped", async () => {
		const line = TRICKY.join(" ");
		server = await startWireServer([{ text: `${line} ${line}\n\n- ${line}\n\n${line}`, delayMs: 0 }]);
		const { project, env } = tempHome();
		const garCmd = garInTerminal({ ...env, OPENAI_API_KEY: "test-key" });
		tmux = TmuxSession.start(
			`cd '${project}' && ${garCmd} --provider openai --model gpt-5 --base-url ${server.url}; sleep 5`,
			{ columns: 120, rows: 30 },
		);
		await tmux.waitFor(/Enter send/);
		tmux.type(`look: ${line}`);
		tmux.send(["Enter"]);
		await tmux.waitFor(/done · 1 turn/);
		tmux.type(`${line} END`);
		const rows = (await tmux.waitFor(/ END/)).split("\n");
		// Nothing scrolled or wrapped: the status bar is still the first row, the input's hint ends its row.
		expect(rows[0]).toMatch(/^ gar \d/);
		expect(rows.find((row) => row.startsWith("› "))).toMatch(/ Enter send$/);
		const bordered = rows.slice(1).filter((row) => row.includes("│"));
		expect(bordered.length).toBeGreaterThan(20);
		const before = bordered.map((row) => row.slice(0, row.indexOf("│")));
		// The chat is 120 − 44 − 1 = 75 columns wide: tmux itself measures what is left of each border.
		expect(await TmuxSession.columns(before)).toEqual(before.map(() => 75));
		expect(rows.join("\n")).toContain("⟨U+1FA77⟩");
	}, 30_000);
});
