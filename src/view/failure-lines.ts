/** One line of a command's output, numbered as the command printed it (1-based). */
export type NumberedLine = { line: number; text: string };

/** What a folded failed command shows: the lines that explain it, and how many more such lines there are. */
export type FailureExcerpt = {
	lines: NumberedLine[];
	/** Explaining lines left out (the whole output is one Ctrl+O away). */
	more: number;
	/** False when no line said what went wrong: `lines` is then the end of the output. */
	matched: boolean;
};

/** Words that say something failed: errors and exceptions (TypeError too), failures, TAP's not ok, tracebacks. */
const FAILURE =
	/\bnot ok\b|\btraceback\b|\bpanick?(ed)?\b|\bfatal\b|\bfail(s|ed|ure|ures|ing)?\b|(error|exception)s?\b|\bERR!/i;
/** pytest's explanation lines ("E       assert 2.0 == 3"). */
const PYTEST_E = /^E\s/;
/**
 * Counts of nothing ("# fail 0", "0 errors", "failures=0"), passes ("ok 3 - handles errors", "✓ …") and the names of
 * tests about to run ("# Subtest: handles errors").
 */
const NOTHING_FAILED =
	/(^|[^\w.])(0|no) (errors?|failures?|failed|failing)\b|\b(errors?|failures?|fail|failed)\W{0,3}0\b|^\s*ok \d|^\s*[✓✔√]|^\s*# Subtest:/i;
/** A banner around one word ("===== FAILURES =====", "--- ERRORS ---"): the lines under it say more. */
const BANNER = /^\s*[=_*-]{3,}\s*\w+\s*[=_*-]{3,}\s*$/;
/** A line that introduces the next one ("error: |-", "Traceback (most recent call last):"). */
const HEADING = /(:|\|-?)\s*$/;
/** Lines a heading brings after it (TAP's "error: |-" then "Expected values to be strictly equal:" then "4 !== 3"). */
const FOLLOWING = 2;
/** npm's own report of a failed script: read only when the output says nothing better. */
const NPM = /^npm (ERR!|error)/;
/** The marker gar puts where it cut a long output: `[… 1200 lines (48000 bytes) omitted; …]`. */
const OMITTED = /^\[… (\d+) lines \(\d+ bytes\) omitted;/;
/** What gar appends to a failed command's output (the header already says it). */
const TRAILER = /^\[(Exit code -?\d+|Killed by signal \w+|Timed out after|Aborted by the user)/;

/** The output's lines numbered as printed (lines hidden behind an "omitted" marker are counted, not kept). */
function numbered(output: string): NumberedLine[] {
	const raw = output.replace(/\n+$/, "").split("\n");
	// gar's trailer and the blank line before it are not the command's output.
	while (raw.length > 0 && (TRAILER.test(raw.at(-1) ?? "") || raw.at(-1)?.trim() === "")) raw.pop();
	const out: NumberedLine[] = [];
	let line = 1;
	for (const text of raw) {
		const omitted = OMITTED.exec(text);
		if (omitted) line += Number(omitted[1]);
		else out.push({ line: line++, text });
	}
	return out;
}

const says = (text: string) =>
	(FAILURE.test(text) || PYTEST_E.test(text)) && !NOTHING_FAILED.test(text) && !BANNER.test(text);

/**
 * The lines of a failed command's output that say what went wrong — those that mention an error, a failure, `not ok`
 * or a traceback (pytest's `E` lines too; a heading such as `error: |-` brings the line after it), with their line
 * numbers, at most `max`, first ones first. npm's own `npm error` lines count only when nothing else does; when no
 * line says anything, the last `max` lines. Pure; O(output).
 */
export function failureLines(output: string, max = 5): FailureExcerpt {
	const lines = numbered(output);
	const picked = new Set<number>();
	const pick = (skipNpm: boolean) => {
		for (const [i, entry] of lines.entries()) {
			if (!says(entry.text) || (skipNpm && NPM.test(entry.text))) continue;
			picked.add(i);
			// A heading brings the next non-blank lines while they keep introducing more.
			let text = entry.text;
			for (let j = i + 1, brought = 0; j < lines.length && brought < FOLLOWING && HEADING.test(text); j++) {
				const next = lines[j] as NumberedLine;
				if (next.text.trim() === "") continue;
				picked.add(j);
				brought++;
				text = next.text;
			}
		}
	};
	pick(true);
	if (picked.size === 0) pick(false);
	if (picked.size === 0) return { lines: lines.slice(-max), more: 0, matched: false };
	const chosen = [...picked].sort((a, b) => a - b).map((i) => lines[i] as NumberedLine);
	return { lines: chosen.slice(0, max), more: Math.max(0, chosen.length - max), matched: true };
}
