// The layer order of src/ (test/support/layers.ts, shown in AGENTS.md "Layout"), held against the code's own imports.
// The imports are read from esbuild's metafile, as test/llm-bundle.test.ts reads the bundle's: every file of src/ is an
// entry, so code no launch reaches is checked too. esbuild drops `import type` before it resolves anything, and a type
// that goes up a layer ties the layers as much as a value does: here such a line becomes a bare import first.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";
import { DATA, EXCEPTIONS, type Exception, ORDER, type Order } from "./support/layers.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

type Edge = { from: string; to: string };

/** `import type …` and `export type … from` as bare imports, so the metafile keeps them. */
const typeImports: Plugin = {
	name: "type-imports",
	setup(build) {
		build.onLoad({ filter: /\.tsx?$/ }, (args) => {
			const text = readFileSync(args.path, "utf8").replace(
				/^(?:import type (?:\{[^}]*\}|\* as \w+|\w+)|export type \{[^}]*\}) from ("[^"]+")/gm,
				"import $1",
			);
			return { contents: text, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
		});
	},
};

/** Every import between files of the project at `root`, type-only ones included, from each file of its src/. */
async function importGraph(root: string): Promise<Edge[]> {
	const entryPoints = readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" })
		.filter((name) => /\.tsx?$/.test(name) && !name.endsWith(".d.ts"))
		.map((name) => join(root, "src", name));
	const { metafile } = await build({
		absWorkingDir: root,
		entryPoints,
		bundle: true,
		packages: "external",
		platform: "node",
		format: "esm",
		jsx: "automatic",
		outdir: join(tmpdir(), "gar-layers"),
		write: false,
		metafile: true,
		logLevel: "silent",
		plugins: [typeImports],
	});
	const edges = new Map<string, Edge>();
	for (const [from, input] of Object.entries(metafile.inputs)) {
		for (const { path: to, external } of input.imports) {
			if (!external && from.startsWith("src/")) edges.set(`${from} ${to}`, { from, to });
		}
	}
	return [...edges.values()];
}

/** The room of `path` (relative to the folder `order` is for): its first folder or its file name, else `*`. */
function roomOf(path: string, order: Order): string | undefined {
	const slash = path.indexOf("/");
	const name = slash < 0 ? path : path.slice(0, slash + 1);
	if (order.layers.some((layer) => layer.includes(name))) return name;
	return order.layers.some((layer) => layer.includes("*")) ? "*" : undefined;
}

const layerOf = (room: string, order: Order) => order.layers.findIndex((layer) => layer.includes(room));

/** Why an import from `from` to `to` (paths below `folder`) goes against `order`; null when it does not. */
function against(from: string, to: string, folder: string, order: Order): string | null {
	const [a, b] = [roomOf(from, order), roomOf(to, order)];
	if (a === undefined || b === undefined) return null; // a file in no layer is reported on its own
	const inner = order.inside?.[a];
	if (a === b) return inner ? against(from.slice(a.length), to.slice(a.length), folder + a, inner) : null;
	const [above, below] = [layerOf(a, order), layerOf(b, order)];
	if (above < below) return null;
	return `${folder}${a} may not import ${folder}${b}, ${above === below ? "in its own layer" : "a layer above it"}`;
}

/** Files in no room: `path` relative to `folder`, whose order is `order`. */
function unplaced(path: string, folder: string, order: Order): string[] {
	const room = roomOf(path, order);
	if (room === undefined) return [`${folder}${path} is in no layer of ${folder}`];
	const inner = order.inside?.[room];
	return inner ? unplaced(path.slice(room.length), folder + room, inner) : [];
}

/** Every import against the order, every file in no layer, and every exception no longer needed, in words. */
function check(edges: Edge[], order: Order, exceptions: Exception[], data: string[]): string[] {
	const problems = new Set<string>();
	const excused = new Set<string>();
	for (const { from, to } of edges) {
		for (const path of [from, to]) {
			if (path.startsWith("src/")) for (const p of unplaced(path.slice(4), "src/", order)) problems.add(p);
		}
		const why = to.startsWith("src/")
			? against(from.slice(4), to.slice(4), "src/", order)
			: data.some((folder) => to.startsWith(folder))
				? null
				: `src/ imports only src/ and data (${data.join(", ")})`;
		if (why === null) continue;
		if (exceptions.some((e) => e.from === from && e.to === to)) excused.add(`${from} ${to}`);
		else problems.add(`${from} imports ${to}: ${why}`);
	}
	for (const e of exceptions) {
		if (!excused.has(`${e.from} ${e.to}`)) problems.add(`the exception ${e.from} → ${e.to} is not needed: remove it`);
	}
	return [...problems];
}

/** The order as AGENTS.md shows it: one line per layer, top to bottom, then the order inside a room. */
function renderOrder(order: Order, indent = ""): string {
	const lines = order.layers.map((layer) => `${indent}${layer.join(" · ")}`);
	for (const [room, inner] of Object.entries(order.inside ?? {})) {
		lines.push(`${indent}inside ${room}:`, renderOrder(inner, `${indent}    `));
	}
	return lines.join("\n");
}

describe("layers", () => {
	it("every import of src/ points down the order of test/support/layers.ts", async () => {
		const edges = await importGraph(ROOT);
		expect(edges.length).toBeGreaterThan(300);
		expect(check(edges, ORDER, EXCEPTIONS, DATA)).toEqual([]);
	});

	it("AGENTS.md shows the same order", () => {
		const agents = readFileSync(join(ROOT, "AGENTS.md"), "utf8");
		const block = `\`\`\`text\n${renderOrder(ORDER)}\n\`\`\``;
		expect(agents.includes(block), `AGENTS.md "Layout" should hold, as it is:\n${block}\n`).toBe(true);
	});

	it("refuses an import up or across a layer, a file in no layer, code outside src/ and a stale exception", () => {
		const order: Order = {
			layers: [["app.ts"], ["ui/", "cmd/"], ["core/"]],
			inside: { "ui/": { layers: [["*"], ["parts/"]] } },
		};
		const edges = [
			{ from: "src/app.ts", to: "src/core/a.ts" },
			{ from: "src/ui/app.tsx", to: "src/ui/parts/box.ts" },
			{ from: "src/ui/app.tsx", to: "src/ui/store.ts" },
			{ from: "src/ui/theme.ts", to: "themes/dark.json" },
			{ from: "src/core/a.ts", to: "src/ui/x.ts" },
			{ from: "src/ui/x.ts", to: "src/cmd/y.ts" },
			{ from: "src/ui/parts/box.ts", to: "src/ui/store.ts" },
			{ from: "src/ui/parts/pop.ts", to: "src/ui/store.ts" },
			{ from: "src/cmd/y.ts", to: "src/extra/z.ts" },
			{ from: "src/cmd/y.ts", to: "test/support/cli.ts" },
		];
		const exceptions = [
			{ from: "src/ui/parts/pop.ts", to: "src/ui/store.ts" },
			{ from: "src/ui/old.ts", to: "src/core/a.ts" },
		];
		expect(check(edges, order, exceptions, ["themes/"])).toEqual([
			"src/core/a.ts imports src/ui/x.ts: src/core/ may not import src/ui/, a layer above it",
			"src/ui/x.ts imports src/cmd/y.ts: src/ui/ may not import src/cmd/, in its own layer",
			"src/ui/parts/box.ts imports src/ui/store.ts: src/ui/parts/ may not import src/ui/*, a layer above it",
			"src/extra/z.ts is in no layer of src/",
			"src/cmd/y.ts imports test/support/cli.ts: src/ imports only src/ and data (themes/)",
			"the exception src/ui/old.ts → src/core/a.ts is not needed: remove it",
		]);
	});

	it("counts an import of types only, and a dynamic import", async () => {
		const root = mkdtempSync(join(tmpdir(), "gar-layers-"));
		try {
			writeFileSync(join(root, "package.json"), "{}");
			const src = join(root, "src");
			mkdirSync(src);
			for (const [name, text] of Object.entries({
				"a.ts": 'import type { B } from "./b.js";\nexport type A = B;\n',
				"c.ts": 'export type {\n\tB,\n} from "./b.js";\nexport const d = () => import("./d.js");\n',
				"b.ts": "export type B = number;\n",
				"d.ts": "export const d = 1;\n",
			})) {
				writeFileSync(join(src, name), text);
			}
			const edges = (await importGraph(root)).map((e) => `${e.from} ${e.to}`).sort();
			expect(edges).toEqual(["src/a.ts src/b.ts", "src/c.ts src/b.ts", "src/c.ts src/d.ts"]);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});
});
