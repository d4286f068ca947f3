/**
 * The exported page's one stylesheet: light by default, dark where the reader's system prefers it
 * (`prefers-color-scheme`), system fonts only (nothing to load). Colours follow gar's built-in themes.
 */
export const PAGE_STYLE = `
:root {
	--bg: #ffffff; --fg: #1f2328; --muted: #656d76; --border: #d0d7de; --panel: #f6f8fa; --accent: #0969da;
	--user: #ddf4ff; --added: #1a7f37; --added-bg: #dafbe1; --removed: #cf222e; --removed-bg: #ffebe9;
	--hunk: #8250df; --error: #cf222e; --warning: #9a6700;
}
@media (prefers-color-scheme: dark) {
	:root {
		--bg: #1a1b26; --fg: #c0caf5; --muted: #737aa2; --border: #3b4261; --panel: #1f2335; --accent: #7aa2f7;
		--user: #24283b; --added: #9ece6a; --added-bg: #20303b; --removed: #f7768e; --removed-bg: #37222c;
		--hunk: #bb9af7; --error: #f7768e; --warning: #e0af68;
	}
}
* { box-sizing: border-box; }
body {
	margin: 0 auto; max-width: 60rem; padding: 1.5rem; background: var(--bg); color: var(--fg);
	font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif;
}
h1 { font-size: 1.5rem; margin: 0 0 0.5rem; overflow-wrap: anywhere; }
h2 { font-size: 0.8rem; margin: 0 0 0.25rem; color: var(--muted); text-transform: uppercase; letter-spacing: 0.05em; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 1rem; margin: 0 0 1.5rem; color: var(--muted); }
.meta div { display: contents; }
.meta dt { font-weight: 600; }
.meta dd { margin: 0; overflow-wrap: anywhere; }
pre, code { font: 13px/1.45 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
pre { background: var(--panel); border: 1px solid var(--border); border-radius: 6px; padding: 0.6rem 0.8rem; overflow-x: auto; white-space: pre; }
code { background: var(--panel); border-radius: 4px; padding: 0.05rem 0.3rem; }
pre code { background: none; padding: 0; }
a { color: var(--accent); }
.user { background: var(--user); border-radius: 8px; padding: 0.6rem 0.9rem; margin: 1.5rem 0 0.75rem; }
.plain { white-space: pre-wrap; overflow-wrap: anywhere; }
.reply { overflow-wrap: anywhere; }
.raw { white-space: pre-wrap; font-family: ui-monospace, monospace; color: var(--muted); }
details { border: 1px solid var(--border); border-radius: 6px; margin: 0.5rem 0; padding: 0.3rem 0.7rem; }
details > summary { cursor: pointer; overflow-wrap: anywhere; }
details[open] > summary { margin-bottom: 0.4rem; }
.thinking, .thinking summary { color: var(--muted); }
.tool-name { font-weight: 600; }
.tool .target { background: none; }
.outcome { color: var(--muted); }
.status-error > summary .outcome, .status-denied > summary .outcome, .status-interrupted > summary .outcome { color: var(--error); }
.diff span { display: block; }
.diff .added { color: var(--added); background: var(--added-bg); }
.diff .removed { color: var(--removed); background: var(--removed-bg); }
.diff .hunk, .diff .file { color: var(--hunk); }
.diff .note { color: var(--muted); }
.turn, .run-end, .note { color: var(--muted); font-size: 0.8rem; margin: 0.25rem 0 0.75rem; }
.run-end { border-top: 1px solid var(--border); padding-top: 0.3rem; }
.error, .run-error, .notice-error { color: var(--error); }
.notice-warning { color: var(--warning); }
.compaction, .hook, .hooks { color: var(--muted); }
.image { color: var(--muted); }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--border); padding: 0.2rem 0.5rem; }
.align-center { text-align: center; } .align-right { text-align: right; }
blockquote { margin: 0.5rem 0; padding-left: 0.8rem; border-left: 3px solid var(--border); color: var(--muted); }
`;
