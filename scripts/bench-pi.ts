// pi (the coding agent gar is measured against) in gar's benches, when it is installed: where it is, its home set up
// for the bench's wire server, and a long session in its format with the same content as gar's synthetic one. pi is
// never a dependency of gar: install it anywhere (`npm install @mariozechner/pi-coding-agent` in a folder of its own)
// and point BENCH_PI at its bin (node_modules/.bin/pi) or its dist/cli.js; a `pi` on PATH is used otherwise.
import { randomUUID } from "node:crypto";
import { accessSync, constants, mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { filler, replyText } from "./synthetic-session.js";

/** The pi model the bench asks for (its models.json names it), and pi's ready screen: its footer with that model. */
export const PI_MODEL = "fake-model";
export const PI_READY = /%\/[0-9.]+k.*fake-model/;

/** pi's command (node and its script), or null when it is not installed: BENCH_PI, else `pi` on PATH. */
export function findPi(env: NodeJS.ProcessEnv = process.env): string[] | null {
	const runnable = (file: string) => {
		try {
			accessSync(file, constants.X_OK);
			return true;
		} catch {
			return false;
		}
	};
	const given = env.BENCH_PI;
	if (given) {
		const file = resolve(given);
		if (file.endsWith(".js") || file.endsWith(".mjs")) return [process.execPath, file];
		if (runnable(file)) return [file];
		throw new Error(`BENCH_PI=${given}: not an executable nor a .js file`);
	}
	for (const dir of (env.PATH ?? "").split(delimiter)) {
		if (dir && runnable(join(dir, "pi"))) return [join(dir, "pi")];
	}
	return null;
}

/**
 * pi's settings in `home` for a fake OpenAI-compatible server at `baseUrl` (ending in /v1), as shared/tools/tui-bench
 * writes them; pi also needs PI_OFFLINE=1 (`PI_ENV`), or it downloads fd and ripgrep at start-up.
 */
export function writePiHome(home: string, baseUrl: string): void {
	const dir = join(home, ".pi", "agent");
	mkdirSync(dir, { recursive: true });
	const provider = {
		baseUrl,
		api: "openai-completions",
		apiKey: "dummy",
		compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
		models: [{ id: PI_MODEL, name: PI_MODEL, contextWindow: 200_000, maxTokens: 32_000 }],
	};
	writeFileSync(join(dir, "models.json"), JSON.stringify({ providers: { fakellm: provider } }));
}

export const PI_ENV = { PI_OFFLINE: "1" };

/** pi's arguments for the bench's model. */
export const PI_ARGS = ["--provider", "fakellm", "--model", PI_MODEL];

/**
 * A session of `entries` entries in pi's format (version 3, one linear branch) with the runs writeSyntheticSession
 * writes for gar: a prompt, four tool rounds (thinking, text, a bash call, a result of a few KB) and a reply.
 */
export function writePiSession(file: string, entries: number, cwd: string): string {
	const start = Date.parse("2026-01-01T00:00:00Z");
	const usage = {
		input: 1200,
		output: 300,
		cacheRead: 20_000,
		cacheWrite: 800,
		totalTokens: 22_300,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.01 },
	};
	const reply = { api: "openai-completions", provider: "fakellm", model: PI_MODEL, usage };
	const lines = [JSON.stringify({ type: "session", version: 3, id: randomUUID(), timestamp: new Date(start), cwd })];
	let parentId: string | null = null;
	for (let i = 0; lines.length - 1 < entries; i++) {
		const timestamp = start + i * 1000;
		const step = i % 10;
		let message: Record<string, unknown>;
		if (step === 0) message = { role: "user", content: [{ type: "text", text: `Task ${i}: ${filler(i, 200)}` }] };
		else if (step === 9) {
			message = { role: "assistant", content: [{ type: "text", text: replyText(i) }], stopReason: "stop", ...reply };
		} else if (step % 2 === 1) {
			const content = [
				{ type: "thinking", thinking: filler(i + 1, 400) },
				{ type: "text", text: filler(i + 2, 150) },
				{ type: "toolCall", id: `call_${i}`, name: "bash", arguments: { command: `npm test -- ${i}` } },
			];
			message = { role: "assistant", content, stopReason: "toolUse", ...reply };
		} else {
			const content = [{ type: "text", text: filler(i, 2500) }];
			message = { role: "toolResult", toolCallId: `call_${i - 1}`, toolName: "bash", content, isError: false };
		}
		const id = i.toString(16).padStart(8, "0");
		const entry = { type: "message", id, parentId, timestamp: new Date(timestamp), message: { ...message, timestamp } };
		lines.push(JSON.stringify(entry));
		parentId = id;
	}
	writeFileSync(file, `${lines.join("\n")}\n`);
	return file;
}
