// The TUI bench's figures and the table it prints.
import { median, percentile } from "./bench-stats.js";

export { median, percentile };

/** What one stream launch measured between Enter and the marker. */
export type StreamFigures = {
	cpuS: number;
	wallS: number;
	bytes: number;
	clears: number;
	syncFrames: number;
	rssMib: number;
};

/** Everything one counted run measured. */
export type RunFigures = {
	baselineMs: number;
	/** Painted from the frame the launch before it kept (src/first-paint.ts). */
	firstFrameMs: number;
	/** The app's own first frame: no frame kept from a launch like it. */
	ownFrameMs: number;
	mode: string;
	idleCpuS: number;
	keysEmpty: number[];
	/** Keys typed after a 5,000-line paste (one placeholder in the input). */
	keysPaste: number[];
	stream: StreamFigures;
	openLongMs: number;
	keysLong: number[];
};

/** What one run measured of pi: the same steps as gar's but the idle CPU and the paste. */
export type PiFigures = Pick<RunFigures, "firstFrameMs" | "keysEmpty" | "stream" | "openLongMs" | "keysLong">;

/** Figures of the run as a whole, and the sizes the labels name. */
export type ReportSetup = {
	nodeMs: number;
	sessionMb: number;
	deltas: number;
	entries: number;
	cols: number;
	rows: number;
};

const ms = (v: number) => `${v.toFixed(0).padStart(5)} ms`;
const mib = (v: number) => `${v.toFixed(0).padStart(5)} MiB`;
const sec = (v: number) => `${v.toFixed(2).padStart(5)} s `;
const row = (label: string, value: string, note = "") => `${label.padEnd(40)}${value.padEnd(46)}${note}`.trimEnd();

/** The table `npm run bench` prints: medians over the runs, keys pooled over all runs, each next to its target. */
export function report(runs: RunFigures[], setup: ReportSetup): string[] {
	const { nodeMs, sessionMb } = setup;
	const deltas = setup.deltas.toLocaleString("en");
	const entries = setup.entries.toLocaleString("en");
	const m = (pick: (r: RunFigures) => number) => median(runs.map(pick));
	const base = m((r) => r.baselineMs);
	const first = m((r) => r.firstFrameMs);
	const own = m((r) => r.ownFrameMs);
	const keysEmpty = runs.flatMap((r) => r.keysEmpty);
	const keysLong = runs.flatMap((r) => r.keysLong);
	const keysPaste = runs.flatMap((r) => r.keysPaste);
	const keyNote = (keys: number[]) => `median ${median(keys).toFixed(1)} ms, p90 ${percentile(keys, 90).toFixed(1)} ms`;
	const mb = m((r) => r.stream.bytes) / 1e6;
	const modes = [...new Set(runs.map((r) => r.mode))].join(", ");
	return [
		`TUI in tmux ${setup.cols}×${setup.rows}, median of ${runs.length} launches — measured: ${modes}`,
		row("node -e 0 (spawnSync)", ms(nodeMs)),
		row("node baseline in tmux (spawn → 'x')", ms(base)),
		row(
			"first frame (spawn → ready), painted",
			`${ms(first)}  ${(first / base).toFixed(2)}× baseline, ${(first / nodeMs).toFixed(1)}× node -e 0`,
			"(target ≤ 2× baseline)",
		),
		row(
			"  the app's own (no frame kept)",
			`${ms(own)}  ${(own / base).toFixed(2)}× baseline, ${(own / nodeMs).toFixed(1)}× node -e 0`,
		),
		row(`stream ${deltas} deltas: CPU`, sec(m((r) => r.stream.cpuS)), "(target ≤ 0.5 CPU-s)"),
		row("  wall (Enter → marker on screen)", sec(m((r) => r.stream.wallS))),
		row("  written to the terminal (+1 s tail)", `${mb.toFixed(3).padStart(5)} MB`, "(target ≤ 0.25 MB)"),
		// Any clear is a flicker a person sees, so the worst run counts, not the median.
		row(
			"  full clears (worst run) / sync frames",
			`${Math.max(...runs.map((r) => r.stream.clears))} / ${m((r) => r.stream.syncFrames)}`,
			"(target 0 clears)",
		),
		row("  peak RSS of the tree", mib(m((r) => r.stream.rssMib)), "(target ≤ 120 MiB)"),
		row("idle CPU (5 s after a 2 s settle)", sec(m((r) => r.idleCpuS)), "(target 0.00 s)"),
		row(`keypress → screen (${keysEmpty.length} keys), empty`, keyNote(keysEmpty), "(target ≤ 6 ms median)"),
		row(
			`  with ${entries} entries`,
			`${keyNote(keysLong)}  ${(median(keysLong) / median(keysEmpty)).toFixed(2)}×`,
			"(target ≤ 1.2× empty)",
		),
		row(
			"  after a 5,000-line paste",
			`${keyNote(keysPaste)}  ${(median(keysPaste) / median(keysEmpty)).toFixed(2)}×`,
			"(target ≤ 1.2× empty)",
		),
		row(`open ${entries}-entry session (${sessionMb.toFixed(0)} MB)`, ms(m((r) => r.openLongMs)), "(target ≤ 1 s)"),
	];
}

/**
 * gar next to pi, both measured in the same runs (medians; keys pooled), with gar's figure as a ratio of pi's and
 * the targets of issue 24 where it names one.
 */
export function sideBySide(runs: RunFigures[], pi: PiFigures[], setup: ReportSetup): string[] {
	const entries = setup.entries.toLocaleString("en");
	const both = (pick: (r: PiFigures) => number) => [median(runs.map(pick)), median(pi.map(pick))] as const;
	const base = median(runs.map((r) => r.baselineMs));
	const line = (label: string, [g, p]: readonly [number, number], show: (v: number) => string, note = "") =>
		`${label.padEnd(34)}${show(g).padStart(12)}${show(p).padStart(12)}${`${(g / p).toFixed(2)}×`.padStart(9)}  ${note}`.trimEnd();
	const keys = (pick: (r: PiFigures) => number[], p: number) =>
		[percentile(runs.flatMap(pick), p), percentile(pi.flatMap(pick), p)] as const;
	const msf = (v: number) => `${v.toFixed(1)} ms`;
	return [
		`gar next to pi, same runs (${runs.length} launches each; keys pooled)  ${"gar".padStart(12)}${"pi".padStart(12)}  gar/pi`,
		line(
			"first frame (gar's painted)",
			both((r) => r.firstFrameMs),
			(v) => `${v.toFixed(0)} ms`,
			`baseline ${base.toFixed(0)} ms`,
		),
		line(
			`stream ${setup.deltas.toLocaleString("en")} deltas: CPU`,
			both((r) => r.stream.cpuS),
			(v) => `${v.toFixed(2)} s`,
		),
		line(
			"  written to the terminal",
			both((r) => r.stream.bytes / 1e6),
			(v) => `${v.toFixed(3)} MB`,
		),
		line(
			"  peak RSS of the tree",
			both((r) => r.stream.rssMib),
			(v) => `${v.toFixed(0)} MiB`,
		),
		line(
			"keypress, empty: median",
			keys((r) => r.keysEmpty, 50),
			msf,
			"(target ≤ 0.8×)",
		),
		line(
			"  p90",
			keys((r) => r.keysEmpty, 90),
			msf,
			"(target ≤ 1.0×)",
		),
		line(
			`keypress, ${entries} entries: median`,
			keys((r) => r.keysLong, 50),
			msf,
			"(target ≤ 0.8×)",
		),
		line(
			"  p90",
			keys((r) => r.keysLong, 90),
			msf,
			"(target ≤ 1.0×)",
		),
		line(
			`open the ${entries}-entry session`,
			both((r) => r.openLongMs),
			(v) => `${v.toFixed(0)} ms`,
		),
	];
}
