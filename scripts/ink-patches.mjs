// Bundle-time fixes to Ink 6.8 for a full-screen app (see shared notes: tui-performance.md, ink-feasibility.md §6).
// Each patch fails the build when its pattern is missing, so an Ink upgrade cannot silently drop a fix.
// Each says where it stands upstream ("Upstream:"), checked against Ink 7.1.1 and @alcalzone/ansi-tokenize 0.3.0, the
// versions Ink 7 takes; "gar-only" means no release has it and no Ink issue asks for it unless one is named.
// test/ink-patches.test.ts checks that the patched frames equal stock Ink's, in the app's incremental mode too.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const NOT_IN_CI = fileURLToPath(new URL("./stubs/not-in-ci.mjs", import.meta.url));
const STRING_WIDTH = fileURLToPath(new URL("../src/term/string-width.ts", import.meta.url));
const GRAPHEMES = fileURLToPath(new URL("../src/term/graphemes.ts", import.meta.url));
/** Entries kept by each text cache before it starts over (Ink's own caches never evict). */
const CACHE_LIMIT = 4096;
const bounded = (map) => `if (${map}.size >= ${CACHE_LIMIT}) ${map}.clear();`;

/** [file suffix, exact text, replacement, why]. */
const PATCHES = [
	[
		"ink/build/log-update.js",
		"buffer.push(ansiEscapes.cursorUp(previousVisible - 1));",
		"buffer.push(ansiEscapes.cursorUp(previousLines.length - 1));",
		// Incremental frames landed one row low and scrolled a full-screen app.
		// Upstream: fixed by #910 (c32da0b), released in Ink 7.0.0: drop this patch with the upgrade.
	],
	[
		"ink/build/log-update.js",
		"ansiEscapes.eraseEndLine +",
		"(fillsRow(nextLines[i], stream.columns) ? '' : ansiEscapes.eraseEndLine) +",
		// A changed row was followed by an erase to the end of the line. After a row drawn to the last column, xterm,
		// urxvt, st and macOS Terminal hold the cursor on that column, so the erase took the row's last character (an
		// approval's right border, the end of a full-width line; tmux and xterm.js hold it past the column and erase
		// nothing). Such a row has nothing after it to erase (test/ink-patches.test.ts, pendingWrap "at").
		// Upstream: open; Ink 7.1.1's incremental writer still erases after every changed row (no Ink issue found;
		// alacritty#6159 lists the terminals, bubbletea#1227 made the same change).
	],
	[
		"ink/build/log-update.js",
		"import cliCursor from 'cli-cursor';",
		`import cliCursor from 'cli-cursor';
import stringWidth from 'string-width';
const FULL_ROWS = new Map();
let fullRowsColumns;
function fillsRow(line, columns) {
    if (!(line.length * 2 >= columns)) return false;
    if (columns !== fullRowsColumns) {
        FULL_ROWS.clear();
        fullRowsColumns = columns;
    }
    let full = FULL_ROWS.get(line);
    if (full === undefined) {
        full = stringWidth(line) >= columns;
        ${bounded("FULL_ROWS")} FULL_ROWS.set(line, full);
    }
    return full;
}`,
		// Whether a line takes the whole row: no character takes more than two columns, so most lines are ruled out
		// unmeasured, and a line is measured once (a scrolling chat rewrites the same lines one row up).
		// Upstream: open (the helper of the patch above).
	],
	[
		"ink/build/output.js",
		"caches = new OutputCaches();",
		"caches = SHARED_CACHES;",
		// Every frame made a new Output with empty caches, so each frame re-tokenized every row on screen.
		// Upstream: gar-only; Ink 7.1.1 still makes these caches per Output, so per frame (they came in #835).
	],
	[
		"ink/build/output.js",
		"export default class Output {",
		"const SHARED_CACHES = new OutputCaches();\nexport default class Output {",
		// The one cache set all frames share (the character objects in it are never mutated).
		// Upstream: gar-only (the shared caches above).
	],
	[
		"ink/build/output.js",
		"this.styledChars.set(",
		`${bounded("this.styledChars")} this.styledChars.set(`,
		// Upstream: gar-only (Ink's per-frame caches need no bound; shared ones do).
	],
	[
		"ink/build/output.js",
		`row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });`,
		"row.push(BLANK_CELL);",
		// One blank cell object for every empty cell (cells are replaced, never mutated): 4,800 fewer objects a frame.
		// Upstream: gar-only; Ink 7.1.1 still makes a blank cell per empty cell.
	],
	[
		"ink/build/output.js",
		`currentLine[offsetX + index] = {
                                    type: 'char',
                                    value: '',
                                    fullWidth: false,
                                    styles: character.styles,
                                };`,
		"currentLine[offsetX + index] = fillerOf(character);",
		// The cell after a wide character is the same object every frame, so its row can be reused.
		// Upstream: gar-only; Ink 7.1.1 still makes a new one per wide character per frame.
	],
	[
		"ink/build/output.js",
		`const generatedOutput = output
            .map(line => {
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return styledCharsToString(lineWithoutEmptyItems).trimEnd();
        })
            .join('\\n');`,
		"const generatedOutput = output.map(rowString).join('\\n');",
		// A row whose cells are the very objects of the last frame's row is the same text: only changed rows are
		// serialized (the style diff per cell was the largest cost of a keypress frame).
		// Upstream: gar-only; Ink 7.1.1 serializes every row of every frame.
	],
	[
		"ink/build/output.js",
		"const SHARED_CACHES = new OutputCaches();",
		`const SHARED_CACHES = new OutputCaches();
const BLANK_CELL = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });
const FILLERS = new WeakMap();
function fillerOf(character) {
    let filler = FILLERS.get(character);
    if (filler === undefined) {
        filler = { type: 'char', value: '', fullWidth: false, styles: character.styles };
        FILLERS.set(character, filler);
    }
    return filler;
}
const ROWS = [];
function rowString(cells, y) {
    const last = ROWS[y];
    if (last !== undefined && last.cells.length === cells.length) {
        let same = true;
        for (let x = 0; x < cells.length && same; x++) same = last.cells[x] === cells[x];
        if (same) return last.text;
    }
    const text = styledCharsToString(cells.filter(item => item !== undefined)).trimEnd();
    ROWS[y] = { cells, text };
    return text;
}`,
		// Upstream: gar-only (the helpers of the three patches above).
	],
	[
		"ink/build/output.js",
		"import stringWidth from 'string-width';",
		"import stringWidth, { terminalForm } from 'string-width';",
		// Upstream: gar-only (gar's string-width, aliased below, has terminalForm).
	],
	[
		"ink/build/output.js",
		"cached = styledCharsFromTokens(tokenize(line));",
		"cached = styledCharsFromTokens(tokenize(line)).map(shownChar);",
		// Each character is drawn in the form its width was measured as (src/term/string-width.ts terminalForm: where
		// terminals disagree on a cluster's width, one they all draw alike), once per line of text, not per frame.
		// Upstream: gar-only (gar's width model).
	],
	[
		"ink/build/output.js",
		`                        currentLine[offsetX] = character;
                        // Determine printed width using string-width to align with measurement
                        const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));`,
		`                        const characterWidth = this.caches.getStringWidth(character.value);
                        if (characterWidth === 0) continue;
                        if (offsetX + characterWidth > this.width) break;
                        currentLine[offsetX] = character;`,
		// A character measured zero columns wide (a lone U+200B) took a cell of its own, so the rest of its row was drawn
		// one column left of where the layout put it; and nothing stopped a row at the screen's width, where a terminal
		// wraps it onto the next row. Now such a character takes no cell and a row ends at the width.
		// Upstream: gar-only; Ink 7.1.1 still gives each character Math.max(1, width) cells and no stop at the width.
	],
	[
		"ink/build/output.js",
		"const FILLERS = new WeakMap();",
		`const FILLERS = new WeakMap();
function shownChar(character) {
    const form = terminalForm(character.value);
    return form === character.value ? character : { ...character, value: form };
}`,
		// Upstream: gar-only (the terminal form's helper).
	],
	[
		"ink/build/output.js",
		"this.widths.set(",
		`${bounded("this.widths")} this.widths.set(`,
		// Upstream: gar-only (the shared caches above).
	],
	[
		"ink/build/output.js",
		"this.blockWidths.set(",
		`${bounded("this.blockWidths")} this.blockWidths.set(`,
		// Upstream: gar-only (the shared caches above).
	],
	[
		"ink/build/measure-text.js",
		"cache.set(text, dimensions);",
		`${bounded("cache")} cache.set(text, dimensions);`,
		// Upstream: unbounded in Ink 7.1.1; issue #986 (closed after 7.1.1).
	],
	[
		"ink/build/wrap-text.js",
		"const cache = {};",
		"const cache = new Map();",
		// Upstream: issue #986; Ink's main bounds this cache after 7.1.1 (an LRU, see #998).
	],
	[
		"ink/build/wrap-text.js",
		"const cachedText = cache[cacheKey];",
		"const cachedText = cache.get(cacheKey);",
		// Upstream: as the patch above.
	],
	[
		"ink/build/wrap-text.js",
		"const cacheKey = text + String(maxWidth) + String(wrapType);",
		"const cacheKey = String(maxWidth) + '|' + String(wrapType) + '|' + text;",
		// The key ran text, width and wrap type together: "abcdefghijklm" at 12 and "abcdefghijklm1" at 2 shared one,
		// and the second text was drawn as the first's wrapping. Width and type first, each ended, cannot collide.
		// Upstream: fixed on Ink's main after 7.1.1 (#998); Ink 6.8 and 7.1.1 have the unseparated key.
	],
	[
		"ink/build/wrap-text.js",
		"cache[cacheKey] = wrappedText;",
		`${bounded("cache")} cache.set(cacheKey, wrappedText);`,
		// Ink's measure and wrap caches kept every text ever laid out for the whole session.
		// Upstream: as the patches above (issue #986).
	],
	[
		"yoga-layout/dist/binaries/yoga-wasm-base64-esm.js",
		'(function(){return w||"function"!=typeof WebAssembly.instantiateStreaming||ua(H)||"function"!=typeof fetch?c(b):',
		"(function(){return a(new WebAssembly.Instance(new WebAssembly.Module(wa()),d)),Promise.resolve();",
		// The inlined wasm is compiled and instantiated at once, in step: no fetch of its data: URL (that loaded
		// undici, 25–60 ms at start-up) and no promise to await, so yoga loads in a CommonJS bundle (dist/gar.cjs).
		// Upstream: gar-only; yoga-layout 3.2.1, which Ink 7 keeps (~3.2.1), loads asynchronously (Ink #787, closed).
	],
	[
		"yoga-layout/dist/binaries/yoga-wasm-base64-esm.js",
		"var _scriptDir = import.meta.url;",
		"var _scriptDir;",
		// Upstream: gar-only (import.meta has no CommonJS form).
	],
	[
		"yoga-layout/dist/binaries/yoga-wasm-base64-esm.js",
		"var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);var d=c}",
		'var d=Buffer.from(a.slice(37),"base64")}',
		// Node decodes the base64 natively: ~3 ms less than atob and a loop over 90 KB.
		// Upstream: gar-only.
	],
	[
		"yoga-layout/dist/src/index.js",
		"const Yoga = wrapAssembly(await loadYoga());",
		"const yogaModule = {};\nloadYoga(yogaModule);\nconst Yoga = wrapAssembly(yogaModule);",
		// Emscripten fills in the object it is given; with the instantiation above it is complete on return.
		// Upstream: gar-only; yoga-layout 3.2.1's entry still has this top-level await (Ink #787, closed).
	],
	[
		"ink/build/reconciler.js",
		"await import('./devtools.js');",
		"void 0;",
		// Ink's React DevTools bridge (DEV=true only): never wanted, and a top-level await has no CommonJS form.
		// Upstream: gar-only; Ink 7.1.1's reconciler still awaits it at top level (Ink #571 asks to bundle without it).
	],
	[
		"ink/build/reconciler.js",
		"? await loadPackageJson()",
		"? { name: undefined, version: undefined }",
		// Upstream: gar-only; Ink 7.1.1 still awaits its package.json at top level when DEV=true.
	],
	[
		"@alcalzone/ansi-tokenize/build/tokenize.js",
		'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });',
		`import { graphemeSegmenter as segmenter } from ${JSON.stringify(GRAPHEMES)};`,
		// Both ANSI tokenizers made an Intl.Segmenter at import: 9 ms of ICU set-up before the first frame, for text
		// that is nearly always split per unit (src/term/graphemes.ts; its segmenter is made on first need).
		// Upstream: gar-only; ansi-tokenize 0.3.0 (Ink 7's) still makes its segmenter at import.
	],
	[
		"@alcalzone/ansi-tokenize/build/styledChars.js",
		"styles: [...codes],",
		"styles: codes,",
		// One style array per run of same-styled characters instead of one per character (style arrays are never
		// changed in place: each ANSI code makes a new one), so the row serializer below can compare them by identity.
		// Upstream: gar-only; ansi-tokenize 0.3.0 still copies the styles for each character.
	],
	[
		"@alcalzone/ansi-tokenize/build/styledChars.js",
		`        else {
            ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));
        }`,
		`        else if (!sameStyles(chars[i - 1].styles, char.styles)) {
            ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));
        }`,
		// The style diff (three Sets per cell) ran for every cell of every changed row; between cells of the same
		// style it is empty.
		// Upstream: gar-only; ansi-tokenize 0.3.0 diffs every pair of cells.
	],
	[
		"@alcalzone/ansi-tokenize/build/styledChars.js",
		"if (i === chars.length - 1) {",
		"if (i === chars.length - 1 && char.styles.length > 0) {",
		// Upstream: gar-only (as the patch above, for the reset after a row's last character).
	],
	[
		"@alcalzone/ansi-tokenize/build/styledChars.js",
		"export function styledCharsToString(chars) {",
		`const sameStyles = (a, b) => a === b || (a.length === 0 && b.length === 0);
export function styledCharsToString(chars) {`,
		// Upstream: gar-only (the helper of the two patches above).
	],
	[
		"slice-ansi/tokenize-ansi.js",
		"const GRAPHEME_SEGMENTER = new Intl.Segmenter(undefined, {granularity: 'grapheme'});",
		`import { graphemeSegmenter as GRAPHEME_SEGMENTER } from ${JSON.stringify(GRAPHEMES)};`,
		// Upstream: gar-only (as ansi-tokenize's segmenter above).
	],
	[
		"slice-ansi/tokenize-ansi.js",
		"function getGraphemeWidth(grapheme) {",
		"function getGraphemeWidth(grapheme) {\n\treturn stringWidth(grapheme);\n}\nfunction stockGraphemeWidth(grapheme) {",
		// slice-ansi (cli-truncate's truncation) measured clusters its own way: now as the layout does.
		// Upstream: gar-only (gar's width model).
	],
	[
		"slice-ansi/tokenize-ansi.js",
		"import isFullwidthCodePoint from 'is-fullwidth-code-point';",
		"import isFullwidthCodePoint from 'is-fullwidth-code-point';\nimport stringWidth from 'string-width';",
		// Upstream: gar-only (the helper of the patch above).
	],
	[
		"ink/build/reconciler.js",
		"fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')",
		"'{}'",
		// Upstream: gar-only (the package.json read above, reached only with DEV=true).
	],
	[
		"ink/build/ink.js",
		`            this.log.clear();
            // Sync lastOutput so that unmount's final onRender
            // sees it as unchanged and log-update skips it
            this.log.sync(this.lastOutputToRender || this.lastOutput + '\\n');`,
		`            this.log.clear();
            this.lastOutput = '';
            this.lastOutputToRender = '';`,
		// clear() is called once the screen was wiped (fg after Ctrl+Z, back from Ctrl+G's editor). Stock Ink then
		// still took the old frame for what is on screen: an unchanged frame was not drawn and a changed one drew
		// only its changed rows, leaving the rest blank until a resize. Now the next frame is drawn whole.
		// Upstream: gar-only; Ink 7.1.1's clear() still syncs the old frame (no Ink issue found).
	],
	// Frames drawn from what changed. A keypress changed one row of the input, yet every frame laid out, wrapped, styled
	// and rasterized every text on the screen (~1.6 ms of a keypress's ~2.5). Now each node of Ink's tree knows whether
	// it or anything in it changed since the last frame (`changed`, set by every mutation up to the root); a node that
	// did not, at the same place and size, gives the write operations it gave last time, untouched. Output then builds
	// again only the rows that a new, a gone or a differently clipped write touches, and takes the others from the last
	// frame (test/ink-patches.test.ts: the same screens as stock Ink, with rows that change, move and stay).
	// Upstream: gar-only; Ink 7.1.1 renders and rasterizes the whole tree every frame.
	[
		"ink/build/dom.js",
		"const findClosestYogaNode = (node) => {",
		`/** Marks \`node\` and every node above it: something in them changed since the last frame. */
export const markChanged = (node) => {
    for (let at = node; at !== undefined; at = at.parentNode) at.changed = true;
};
const sameStyle = (a, b) => {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) if (a[key] !== b[key]) return false;
    return true;
};
const findClosestYogaNode = (node) => {`,
	],
	[
		"ink/build/dom.js",
		"    node.childNodes.push(childNode);",
		"    node.childNodes.push(childNode);\n    markChanged(node);",
	],
	[
		"ink/build/dom.js",
		"    newChildNode.parentNode = node;",
		"    newChildNode.parentNode = node;\n    markChanged(node);",
	],
	[
		"ink/build/dom.js",
		"    removeNode.parentNode = undefined;",
		"    markChanged(node);\n    removeNode.parentNode = undefined;",
	],
	[
		"ink/build/dom.js",
		"    node.attributes[key] = value;",
		"    node.attributes[key] = value;\n    markChanged(node);",
	],
	[
		"ink/build/dom.js",
		"    node.style = style;",
		// Box makes a new style object every render: only one that reads differently changes what is drawn.
		"    if (!sameStyle(node.style, style)) markChanged(node);\n    node.style = style;",
	],
	["ink/build/dom.js", "    node.nodeValue = text;", "    node.nodeValue = text;\n    markChanged(node);"],
	[
		"ink/build/reconciler.js",
		"import { createTextNode, appendChildNode,",
		"import { markChanged, createTextNode, appendChildNode,",
	],
	[
		"ink/build/reconciler.js",
		`        if (!props && !style) {
            return;
        }`,
		`        if (!props && !style) {
            return;
        }
        markChanged(node);`,
		// A prop that is not a style (a Text's transform, drawn with its text) changed.
	],
	[
		"ink/build/reconciler.js",
		"        node.yogaNode?.setDisplay(Yoga.DISPLAY_NONE);",
		"        markChanged(node);\n        node.yogaNode?.setDisplay(Yoga.DISPLAY_NONE);",
	],
	[
		"ink/build/reconciler.js",
		"        node.yogaNode?.setDisplay(Yoga.DISPLAY_FLEX);",
		"        markChanged(node);\n        node.yogaNode?.setDisplay(Yoga.DISPLAY_FLEX);",
	],
	[
		"ink/build/render-node-to-output.js",
		"const renderNodeToOutput = (node, output, options) => {",
		"const renderNodeFresh = (node, output, options) => {",
	],
	[
		"ink/build/render-node-to-output.js",
		`                    transformers: newTransformers,
                    skipStaticElements,
                });`,
		`                    transformers: newTransformers,
                    skipStaticElements,
                    cache: options.cache,
                });`,
	],
	[
		"ink/build/render-node-to-output.js",
		"export default renderNodeToOutput;",
		`const NO_TRANSFORMERS = [];
const sameTransformers = (a, b) => {
    if (a === b) return true;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
};
/** With \`cache\` (the frame's main tree): a node that did not change, at the same place and size, writes what it wrote. */
const renderNodeToOutput = (node, output, options) => {
    const { yogaNode } = node;
    if (!options.cache || !yogaNode || (options.skipStaticElements && node.internal_static) ||
        yogaNode.getDisplay() === Yoga.DISPLAY_NONE) {
        renderNodeFresh(node, output, options);
        return;
    }
    const x = (options.offsetX ?? 0) + yogaNode.getComputedLeft();
    const y = (options.offsetY ?? 0) + yogaNode.getComputedTop();
    const width = yogaNode.getComputedWidth();
    const height = yogaNode.getComputedHeight();
    const transformers = options.transformers ?? NO_TRANSFORMERS;
    const last = node.lastFrame;
    if (!node.changed && last !== undefined && last.x === x && last.y === y && last.width === width &&
        last.height === height && sameTransformers(last.transformers, transformers)) {
        output.reuse(last.operations);
        return;
    }
    node.changed = false;
    const start = output.operations.length;
    renderNodeFresh(node, output, options);
    node.lastFrame = { x, y, width, height, transformers, operations: output.operations.slice(start) };
};
export default renderNodeToOutput;`,
	],
	[
		"ink/build/renderer.js",
		`            height: node.yogaNode.getComputedHeight(),
        });
        renderNodeToOutput(node, output, {
            skipStaticElements: true,
        });`,
		`            height: node.yogaNode.getComputedHeight(),
            frames: node,
        });
        renderNodeToOutput(node, output, {
            skipStaticElements: true,
            cache: true,
        });`,
		// Only the main tree keeps frames (<Static> output is written once).
	],
	[
		"ink/build/output.js",
		`    constructor(options) {
        const { width, height } = options;`,
		`    /** The root node whose last frame this one is drawn against (the main tree only). */
    frames;
    constructor(options) {
        const { width, height } = options;
        this.frames = options.frames;`,
	],
	[
		"ink/build/output.js",
		`    clip(clip) {`,
		`    /** A node's operations of the last frame, the same objects: it did not change. */
    reuse(operations) {
        for (const operation of operations) this.operations.push(operation);
    }
    clip(clip) {`,
	],
	[
		"ink/build/output.js",
		`        // Initialize output array with a specific set of rows, so that margin/padding at the bottom is preserved
        const output = [];`,
		`        const frame = this.frames === undefined ? undefined : planFrame(this);
        const damage = frame?.damage;
        if (damage !== undefined && damage.indexOf(1) === -1) {
            this.frames.lastRaster = { ...frame.previous, id: frame.id, writes: frame.writes };
            return { output: frame.previous.output, height: this.height };
        }
        // Initialize output array with a specific set of rows, so that margin/padding at the bottom is preserved
        const output = [];`,
	],
	[
		"ink/build/output.js",
		"            const row = [];",
		`            if (damage !== undefined && damage[y] === 0) {
                output.push(frame.previous.rows[y]);
                continue;
            }
            const row = [];`,
		// A row no changed write touches is the last frame's row, the same array (rowString reuses its text).
	],
	[
		"ink/build/output.js",
		"            if (operation.type === 'write') {",
		"            if (operation.type === 'write' && (damage === undefined || touches(damage, operation))) {",
	],
	[
		"ink/build/output.js",
		`                    if (!currentLine) {
                        continue;
                    }`,
		`                    if (!currentLine) {
                        continue;
                    }
                    if (damage !== undefined && damage[y + offsetY] === 0) {
                        offsetY++;
                        continue;
                    }`,
	],
	[
		"ink/build/output.js",
		"const generatedOutput = output.map(rowString).join('\\n');",
		`const generatedOutput = output.map(rowString).join('\\n');
        if (frame !== undefined) {
            this.frames.lastRaster = { id: frame.id, width: this.width, height: this.height, rows: output, writes: frame.writes, output: generatedOutput };
        }`,
	],
	[
		"ink/build/output.js",
		"const ROWS = [];",
		`const ROWS = [];
let FRAME_ID = 0;
const lineCount = (operation) => {
    let lines = operation.lines;
    if (lines === undefined) {
        lines = 1;
        for (let at = operation.text.indexOf('\\n'); at !== -1; at = operation.text.indexOf('\\n', at + 1)) lines++;
        operation.lines = lines;
    }
    return lines;
};
const markRows = (damage, operation) => {
    const end = Math.min(damage.length, operation.y + lineCount(operation));
    for (let y = Math.max(0, operation.y); y < end; y++) damage[y] = 1;
};
const touches = (damage, operation) => {
    const end = Math.min(damage.length, operation.y + lineCount(operation));
    for (let y = Math.max(0, operation.y); y < end; y++) if (damage[y] === 1) return true;
    return false;
};
const sameClip = (a, b) => a === b || (a !== undefined && b !== undefined && a.x1 === b.x1 && a.x2 === b.x2 && a.y1 === b.y1 && a.y2 === b.y2);
/**
 * Which rows of \`output\` differ from the root's last frame: those a write touches that the last frame did not have,
 * that it had and this one has not, or that is clipped otherwise. A write is the same only as the same object, at
 * the same place among the others (else the whole frame is drawn). \`damage\` undefined: draw every row.
 */
function planFrame(output) {
    const previous = output.frames.lastRaster;
    const id = ++FRAME_ID;
    const writes = [];
    let damage = previous !== undefined && previous.width === output.width && previous.height === output.height
        ? new Uint8Array(output.height)
        : undefined;
    const clips = [];
    let lastIndex = -1;
    for (const operation of output.operations) {
        if (operation.type === 'clip') clips.push(operation.clip);
        else if (operation.type === 'unclip') clips.pop();
        if (operation.type !== 'write') continue;
        const clip = clips.at(-1);
        if (damage !== undefined) {
            if (operation.stamp !== previous.id) markRows(damage, operation);
            else if (operation.index < lastIndex) damage = undefined;
            else {
                lastIndex = operation.index;
                if (!sameClip(operation.clip, clip)) markRows(damage, operation);
            }
        }
        operation.stamp = id;
        operation.index = writes.length;
        operation.clip = clip;
        writes.push(operation);
    }
    if (damage !== undefined) for (const operation of previous.writes) if (operation.stamp !== id) markRows(damage, operation);
    return { id, previous, damage, writes };
}`,
	],
	[
		"ink/build/output.js",
		"    const last = ROWS[y];",
		"    const last = ROWS[y];\n    if (last !== undefined && last.cells === cells) return last.text;",
	],
	// A key's frame without the throttle's wait. Ink draws a commit at most once per 1000 / maxFps ms (34 ms at the
	// app's 30): a key typed within that time of the last frame (a fast typist, or any key while a reply streams) waited
	// for the throttle's trailing edge, up to 34 ms, with its frame ready. Now a commit made while Ink hands a key to
	// the app's input handlers is drawn at once; everything else stays throttled (test/ink-patches.test.ts).
	// Upstream: gar-only; Ink 7.1.1 throttles every commit alike.
	[
		"ink/build/reconciler.js",
		"let currentRootNode;",
		`let currentRootNode;
/** Whether Ink is handing input to the app's handlers now: what they commit is drawn at once, not throttled. */
export const inputFrame = { pending: false };
/** Runs \`update\` so that what it commits is drawn at once, as a key's frame is (gar: a resumed session's screen). */
export const drawNow = (update) => {
    inputFrame.pending = true;
    try {
        update();
    }
    finally {
        queueMicrotask(() => {
            inputFrame.pending = false;
        });
    }
};`,
	],
	// The app's way to the same: \`drawNow\` from "ink" (src/ui/terminal/draw-now.ts; stock Ink has none).
	[
		"ink/build/index.js",
		"export { default as render } from './render.js';",
		"export { default as render } from './render.js';\nexport { drawNow } from './reconciler.js';",
	],
	[
		"ink/build/reconciler.js",
		`        if (typeof rootNode.onRender === 'function') {
            rootNode.onRender();
        }`,
		`        if (inputFrame.pending && typeof rootNode.onImmediateRender === 'function') {
            rootNode.onImmediateRender();
            return;
        }
        if (typeof rootNode.onRender === 'function') {
            rootNode.onRender();
        }`,
	],
	[
		"ink/build/hooks/use-input.js",
		"import reconciler from '../reconciler.js';",
		"import reconciler, { inputFrame } from '../reconciler.js';",
	],
	[
		"ink/build/hooks/use-input.js",
		`                reconciler.batchedUpdates(() => {
                    inputHandler(input, key);
                });`,
		// As a discrete event (React DOM's keypress): what the handler changes is committed in a microtask React queues
		// meanwhile (a plain setState's otherwise waited for a scheduler task), and the flag is cleared in one queued
		// after it, so it holds for that commit and for nothing later. (batchedUpdates is a no-op in React 19.)
		`                inputFrame.pending = true;
                try {
                    reconciler.discreteUpdates(() => {
                        inputHandler(input, key);
                    });
                }
                finally {
                    queueMicrotask(() => {
                        inputFrame.pending = false;
                    });
                }`,
	],
	// The first frame as a painted one's update. gar's start script may have painted the frame the app drew first the
	// last time (src/first-paint.ts): the incremental writer then starts from it as what is on screen, so the app's own
	// first frame writes only the rows that differ; and it keeps the first frame it is given, for the next launch.
	// Upstream: gar-only.
	[
		"ink/build/log-update.js",
		`const create = (stream, { showCursor = false, incremental = false } = {}) => {
    if (incremental) {
        return createIncremental(stream, { showCursor });
    }`,
		`/** gar: \`painted\`, the frame on screen before the first render (set before render()); \`first\`, the first frame. */
export const startFrame = { painted: undefined, first: undefined };
const create = (stream, { showCursor = false, incremental = false } = {}) => {
    if (incremental) {
        const write = createIncremental(stream, { showCursor });
        if (startFrame.painted !== undefined) write.sync(startFrame.painted);
        startFrame.painted = undefined;
        const log = (str) => {
            startFrame.first ??= str;
            return write(str);
        };
        return Object.assign(log, write);
    }`,
	],
	[
		"ink/build/index.js",
		"export { default as render } from './render.js';",
		"export { default as render } from './render.js';\nexport { startFrame } from './log-update.js';",
	],
	// Ctrl+C is a key of its own even when it comes in one read with others. Ink splits a read at escape sequences only,
	// so two Ctrl+C read at once ("\x03\x03": pressed quickly on a busy machine or over a slow link) were one event
	// that matched no key: the run was not stopped and gar did not quit (test/ink-patches.test.ts).
	// Upstream: gar-only; Ink 7.1.1's input parser splits at escape sequences only.
	[
		"ink/build/input-parser.js",
		"const escape = '\\u001B';",
		`const escape = '\\u001B';
/** Pushes a run of text, each Ctrl+C in it an event of its own. */
const pushText = (events, text) => {
    let start = 0;
    for (let at = text.indexOf('\\x03'); at !== -1; at = text.indexOf('\\x03', start)) {
        if (at > start) events.push(text.slice(start, at));
        events.push('\\x03');
        start = at + 1;
    }
    if (start < text.length) events.push(text.slice(start));
};`,
	],
	// The same for Esc: two read at once ("\x1b\x1b", Esc Esc on a busy machine) were one event that Ink reads as
	// Alt+Esc, so Esc Esc (rewind) opened nothing. Now they are two Esc keys, in a read of their own or before a key.
	[
		"ink/build/input-parser.js",
		"            events.push(input.slice(escapeIndex, escapeIndex + 2));",
		"            events.push(escape, escape);",
	],
	[
		"ink/build/components/App.js",
		"            emitInput(pendingEscape);",
		`            if (pendingEscape === '\\u001B\\u001B') {
                emitInput('\\u001B');
                emitInput('\\u001B');
                return;
            }
            emitInput(pendingEscape);`,
	],
	[
		"ink/build/input-parser.js",
		`        if (escapeIndex === -1) {
            events.push(input.slice(index));`,
		`        if (escapeIndex === -1) {
            pushText(events, input.slice(index));`,
	],
	[
		"ink/build/input-parser.js",
		`        if (escapeIndex > index) {
            events.push(input.slice(index, escapeIndex));
        }`,
		`        if (escapeIndex > index) {
            pushText(events, input.slice(index, escapeIndex));
        }`,
	],
];

/** The files PATCHES touch: each suffix with either path separator. */
const PATCHED = new RegExp(
	`(${[...new Set(PATCHES.map(([suffix]) => suffix.replaceAll(".", "\\.").replaceAll("/", "[\\\\/]")))].join("|")})$`,
);

/**
 * The esbuild plugin: one string-width for every package (gar's own, without the 26 ms emoji
 * regex, and replacing wrap-ansi's slow private copy), Ink never in its CI mode, and the patches above.
 */
export const inkPatches = {
	name: "ink-patches",
	setup(build) {
		build.onResolve({ filter: /^string-width$/ }, () => ({ path: STRING_WIDTH }));
		// Upstream: Ink 7's `interactive` render option (#888, Ink 7.0.0) can replace this alias.
		build.onResolve({ filter: /^is-in-ci$/ }, () => ({ path: NOT_IN_CI }));
		build.onLoad({ filter: PATCHED }, (args) => {
			let text = readFileSync(args.path, "utf8");
			const path = args.path.replaceAll("\\", "/");
			for (const [suffix, from, to] of PATCHES) {
				if (!path.endsWith(suffix)) continue;
				if (!text.includes(from)) throw new Error(`ink patch for ${suffix} no longer applies: "${from}" not found`);
				text = text.replace(from, to);
			}
			return { contents: text, loader: "js" };
		});
	},
};
