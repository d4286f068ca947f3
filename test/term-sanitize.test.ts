import { describe, expect, it } from "vitest";
import {
	hasHostileControls,
	hasZeroWidth,
	jsonForTerminal,
	revealHidden,
	sanitizeBytesForTerminal,
	sanitizeForTerminal,
	TerminalSanitizer,
} from "../src/term/sanitize.js";

describe("sanitizeForTerminal", () => {
	it.each([
		["OSC 0 window title", "\x1b]0;pwned\x07ok", "␛]0;pwned^Gok"],
		["OSC 2 window title, ST-terminated", "\x1b]2;title\x1b\\", "␛]2;title␛\\"],
		[
			"OSC 8 hyperlink hiding its target",
			"\x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\",
			"␛]8;;https://evil.example␛\\docs␛]8;;␛\\",
		],
		["OSC 52 clipboard write", "\x1b]52;c;cm0gLXJmIH4=\x07", "␛]52;c;cm0gLXJmIH4=^G"],
		["CSI erase screen", "\x1b[2Jclean", "␛[2Jclean"],
		["CSI cursor up and erase line", "safe\x1b[1A\x1b[2Kevil", "safe␛[1A␛[2Kevil"],
		["CSI colour", "\x1b[31mred\x1b[0m", "␛[31mred␛[0m"],
		["8-bit CSI (C1)", "\x9b2J", "⟨U+009B⟩2J"],
		["DCS", "\x1bPq#0\x1b\\", "␛Pq#0␛\\"],
		["\\r overwrite", "rm -rf ~\rls -la   ", "rm -rf ~^Mls -la   "],
		["BEL", "ding\x07", "ding^G"],
		["NUL, backspace, DEL", "a\x00b\x08c\x7f", "a^@b^Hc^?"],
		["form feed and vertical tab", "a\x0cb\x0bc", "a^Lb^Kc"],
		["bidi override (trojan source)", "if (admin\u202e && ok)", "if (admin⟨U+202E⟩ && ok)"],
		["bidi isolates", "\u2066a\u2067b\u2068c\u2069", "⟨U+2066⟩a⟨U+2067⟩b⟨U+2068⟩c⟨U+2069⟩"],
		["bidi marks", "\u200e\u200f\u061c", "⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩"],
		["embeddings", "\u202a\u202b\u202c\u202d", "⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩"],
		["lone high surrogate", "a\ud800b", "a\ufffdb"],
		["lone low surrogate", "a\udc00b", "a\ufffdb"],
		["lone surrogate at the end", "ab\ud83d", "ab\ufffd"],
	])("shows %s visibly", (_name, input, shown) => {
		expect(sanitizeForTerminal(input)).toBe(shown);
	});

	it.each([
		["ASCII", "hello, world"],
		["tabs and newlines", "a\tb\nc\n\n"],
		["CRLF line endings", "one\r\ntwo\r\n"],
		["CJK", "你好，世界 こんにちは 안녕하세요"],
		["emoji with ZWJ and skin tone", "👩‍👩‍👧 👍🏽 🇯🇵"],
		["Arabic and Hebrew text without controls", "مرحبا שלום"],
		["box drawing and symbols", "┌─┐ ␛ ^G ⟨U+202E⟩"],
		["empty", ""],
	])("returns clean text unchanged: %s", (_name, text) => {
		expect(sanitizeForTerminal(text)).toBe(text);
		expect(hasHostileControls(text)).toBe(false);
	});

	it("is linear on long input", () => {
		const clean = "x".repeat(5_000_000);
		const dirty = "\x1b[2J".repeat(1_000_000);
		const start = performance.now();
		expect(sanitizeForTerminal(clean)).toBe(clean);
		expect(sanitizeForTerminal(dirty)).toBe("␛[2J".repeat(1_000_000));
		expect(performance.now() - start).toBeLessThan(2_000);
	});
});

describe("jsonForTerminal", () => {
	it("escapes what a terminal would act on, and reads back as the same value", () => {
		const value = { a: "x\u009b2Jy\u202Ez", b: ["\u001b]52;c;Zm9v\u0007", 1], c: "plain" };
		const json = jsonForTerminal(value);
		expect(json).toBe(sanitizeForTerminal(json));
		expect(json).toContain("\\u009b");
		expect(json).toContain("\\u202e");
		expect(JSON.parse(json)).toEqual(value);
	});
});

describe("sanitizeBytesForTerminal", () => {
	it("shows invalid UTF-8 as U+FFFD and controls visibly", () => {
		const bytes = Buffer.concat([Buffer.from("ok "), Buffer.from([0xff, 0xfe]), Buffer.from(" \x1b[2J é")]);
		expect(sanitizeBytesForTerminal(bytes)).toBe("ok \ufffd\ufffd ␛[2J é");
	});

	it("shows a truncated multi-byte character as U+FFFD", () => {
		expect(sanitizeBytesForTerminal(Buffer.from([0x61, 0xe4, 0xbd]))).toBe("a\ufffd");
	});
});

describe("hasHostileControls", () => {
	it.each([
		["ESC", "echo \x1b[2J"],
		["lone \\r", "a\rb"],
		["BEL", "\x07"],
		["C1", "\x85"],
		["bidi override", "x\u202ey"],
	])("is true for %s", (_name, text) => {
		expect(hasHostileControls(text)).toBe(true);
	});

	it("ignores invalid UTF-8, which is not a control", () => {
		expect(hasHostileControls("a\ud800")).toBe(false);
	});
});

describe("zero-width characters (flagged and shown in an approval question)", () => {
	it.each([
		["zero-width space", "rm -rf /tmp/build\u200b /home", "rm -rf /tmp/build⟨U+200B⟩ /home"],
		["zero-width non-joiner", "cur\u200cl", "cur⟨U+200C⟩l"],
		["zero-width joiner between letters", "s\u200dudo", "s⟨U+200D⟩udo"],
		["word joiner", "a\u2060b", "a⟨U+2060⟩b"],
		["invisible operator", "a\u2062b", "a⟨U+2062⟩b"],
		["BOM inside a path", "/etc/\ufeffpasswd", "/etc/⟨U+FEFF⟩passwd"],
		["a joiner after an emoji but before a letter", "👩\u200dx", "👩⟨U+200D⟩x"],
		["tag characters (text that shows as nothing)", "ok\u{e0072}\u{e006d}", "ok⟨U+E0072⟩⟨U+E006D⟩"],
		["with control characters too", "\x1b[2J\u200b", "␛[2J⟨U+200B⟩"],
	])("are shown and flagged: %s", (_name, text, shown) => {
		expect(hasZeroWidth(text)).toBe(true);
		expect(revealHidden(text)).toBe(shown);
	});

	it.each([
		["family emoji (joiners between emoji)", "👩‍👩‍👧"],
		["rainbow flag (variation selector, joiner)", "🏳️‍🌈"],
		["skin tone and joiner", "👩🏽‍💻"],
		["subdivision flag (tags after a black flag)", "🏴󠁧󠁢󠁳󠁣󠁴󠁿"],
		["plain text", "ls -la; echo 日本語"],
	])("are part of the picture, not flagged: %s", (_name, text) => {
		expect(hasZeroWidth(text)).toBe(false);
		expect(revealHidden(text)).toBe(text);
	});

	it("leaves sanitizeForTerminal alone (chat text keeps its joiners)", () => {
		expect(sanitizeForTerminal("a\u200bb")).toBe("a\u200bb");
	});
});

describe("TerminalSanitizer", () => {
	it("gives the same text as sanitizing the whole, however the text is split", () => {
		const whole = "a\r\nb\rc😀d\x1b[2Je\r";
		for (let cut = 0; cut <= whole.length; cut++) {
			for (let cut2 = cut; cut2 <= whole.length; cut2++) {
				const stream = new TerminalSanitizer();
				const parts = [whole.slice(0, cut), whole.slice(cut, cut2), whole.slice(cut2)];
				const out = parts.map((part) => stream.push(part)).join("") + stream.end();
				expect(out).toBe(sanitizeForTerminal(whole));
			}
		}
	});

	it("holds back only a trailing \\r or high surrogate", () => {
		const stream = new TerminalSanitizer();
		expect(stream.push("line\r")).toBe("line");
		expect(stream.push("\nnext")).toBe("\r\nnext");
		expect(stream.push("\ud83d")).toBe("");
		expect(stream.push("\ude00!")).toBe("😀!");
		expect(stream.push("x\r")).toBe("x");
		expect(stream.end()).toBe("^M");
		expect(stream.end()).toBe("");
	});
});
