import { describe, expect, it } from "vitest";
import { type LineItem, LineSplitter } from "../src/text/json-lines.js";

const all = (splitter: LineSplitter, chunks: (string | Buffer)[]): LineItem[] => [
	...chunks.flatMap((c) => splitter.push(typeof c === "string" ? Buffer.from(c) : c)),
	...splitter.end(),
];

describe("LineSplitter", () => {
	it("ends lines at \\n only: U+2028 and U+2029 inside a JSON string stay in their line", () => {
		const message = JSON.stringify({ type: "prompt", text: "a\u2028b\u2029c" });
		const items = all(new LineSplitter(1024), [`${message}\n{"type":"abort"}\n`]);
		expect(items).toEqual([{ line: message }, { line: '{"type":"abort"}' }]);
		expect(JSON.parse((items[0] as { line: string }).line).text).toBe("a\u2028b\u2029c");
	});

	it("joins a line split across chunks, even inside a multi-byte character; drops a \\r before the \\n", () => {
		const bytes = Buffer.from("héllo wörld\r\nnext");
		const items = all(new LineSplitter(1024), [bytes.subarray(0, 2), bytes.subarray(2, 9), bytes.subarray(9)]);
		expect(items).toEqual([{ line: "héllo wörld" }, { line: "next" }]);
	});

	it("refuses a line over the limit once, skips it to its end, and goes on with the next line", () => {
		const splitter = new LineSplitter(10);
		const items = all(splitter, ["short\n0123456", "789abcdef", "0123456789", "xyz\nafter\n"]);
		expect(items).toEqual([{ line: "short" }, { tooLong: 16 }, { line: "after" }]);
	});

	it("keeps memory bounded on a 100 MB line that never ends", () => {
		const splitter = new LineSplitter(1024 * 1024);
		const chunk = Buffer.alloc(1024 * 1024, 0x61);
		const refused: LineItem[] = [];
		for (let i = 0; i < 100; i++) refused.push(...splitter.push(chunk));
		expect(refused).toEqual([{ tooLong: 2 * 1024 * 1024 }]);
		// Nothing of it is kept: the end of the input yields no partial line.
		expect(splitter.end()).toEqual([]);
	});

	it("yields an empty line as one (callers skip blank lines) and a last line without \\n", () => {
		expect(all(new LineSplitter(100), ["a\n\nb"])).toEqual([{ line: "a" }, { line: "" }, { line: "b" }]);
	});
});
