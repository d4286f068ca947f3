import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeSyntheticSession } from "../scripts/synthetic-session.js";
import { GAR_BIN, runProgram, tempHome } from "./support/cli.js";

type Piped = { code: number; stdout: string; stderr: string };

/**
 * Runs the built CLI with stdout into a shell pipe whose reader starts reading only after `delay` seconds (so
 * gar finishes while most of its output still waits in the pipe), or into a file. Resolves with what the reader
 * got, gar's exit code and stderr.
 */
function runInto(
	into: "slow pipe" | "file",
	args: string[],
	env: NodeJS.ProcessEnv,
	cwd: string,
	delay = 0.5,
): Promise<Piped> {
	const script =
		into === "slow pipe"
			? `node "$0" "$@" | (sleep ${delay}; cat); exit \${PIPESTATUS[0]}`
			: `out=$(mktemp); node "$0" "$@" > "$out"; code=$?; cat "$out"; rm "$out"; exit $code`;
	return runProgram("bash", ["-c", script, GAR_BIN, ...args], { env, cwd }).then((run) => ({
		...run,
		code: run.code ?? -1,
	}));
}

describe("output into a pipe whose reader is slow is complete", () => {
	const { root, project, env } = tempHome();
	const sessions = join(root, "sessions");
	let big = "";

	beforeAll(() => {
		// 1,000 small sessions (≈ 385 KB of `sessions --json`) and one big one (≈ 500 KB of `show --json`).
		for (let i = 0; i < 1000; i++) writeSyntheticSession(sessions, 1, { cwd: project });
		big = writeSyntheticSession(join(root, "big"), 3000, { cwd: project, toolResultBytes: 200 });
		// A config whose `config --json` is larger than a pipe's buffer (64 KB).
		mkdirSync(join(root, "config", "gar"), { recursive: true });
		const names = Array.from({ length: 4000 }, (_, i) => `"GAR_TEST_VARIABLE_${i}"`);
		writeFileSync(join(root, "config", "gar", "config.toml"), `[tools]\npass_env = [${names.join(", ")}]\n`);
	}, 30_000);

	const cases: Array<[string, () => string[], "json" | "text"]> = [
		["sessions --json", () => ["sessions", "--json", "--session-dir", sessions], "json"],
		["sessions", () => ["sessions", "--session-dir", sessions], "text"],
		["show --json", () => ["show", "--json", big], "json"],
		["show", () => ["show", big], "text"],
		["config --json", () => ["config", "--json"], "json"],
		["replay", () => ["replay", big], "text"],
		["replay --output stream-json", () => ["replay", big, "--output", "stream-json"], "text"],
	];

	it.each(cases)("gar %s", async (_name, args, kind) => {
		const [piped, filed] = await Promise.all([
			runInto("slow pipe", args(), env, project),
			runInto("file", args(), env, project),
		]);
		expect(filed.stderr).toBe("");
		expect(filed.code).toBe(0);
		expect(filed.stdout.length).toBeGreaterThan(64 * 1024); // more than a pipe holds
		expect(piped.stderr).toBe("");
		expect(piped.code).toBe(0);
		expect(piped.stdout.length).toBe(filed.stdout.length);
		expect(piped.stdout).toBe(filed.stdout);
		if (kind === "json") expect(() => JSON.parse(piped.stdout)).not.toThrow();
	});

	it("a reader that stops early while gar waits for the pipe to drain is no failure (exit 0, nothing on stderr)", async () => {
		const script = `node "$0" "$@" | (sleep 0.3; head -c 100 > /dev/null); echo "gar=\${PIPESTATUS[0]}" >&2`;
		const stderr = await new Promise<string>((resolve) => {
			const child = spawn("bash", ["-c", script, GAR_BIN, "show", "--json", big], { env, cwd: project });
			let text = "";
			child.stderr.setEncoding("utf8").on("data", (d: string) => {
				text += d;
			});
			child.on("close", () => resolve(text));
		});
		expect(stderr).toBe("gar=0\n");
	});
});
