import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runGar, tempHome } from "./support/cli.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

// Distinctive fakes, so finding one anywhere is a leak and never a coincidence.
const KEY = "sk-proj-FAKEKEY0123456789leakcheckABCD";
const TOKEN = "ghp_FAKETOKEN0123456789leakcheck";
const PASSWORD = "hunter2-FAKEPASSWORD-leakcheck";
const SECRETS = [KEY, TOKEN, PASSWORD];

function sessionText(root: string): string {
	const base = join(root, "data", "gar", "sessions");
	return readdirSync(base)
		.flatMap((dir) => readdirSync(join(base, dir)).map((file) => readFileSync(join(base, dir, file), "utf8")))
		.join("\n");
}

const leaks = (text: string) => SECRETS.filter((secret) => text.includes(secret));

/**
 * `gar -p` with a key and a token in the environment and a base URL with a password, whose scripted model runs
 * `bash env`: no secret may show up anywhere gar writes or sends.
 */
describe("gar -p keeps secrets out of everything it writes", () => {
	let server: WireServer;
	let root: string;
	let text: CliRun;
	let stream: CliRun;

	beforeAll(async () => {
		server = await startWireServer((req) => {
			const messages = (req.body as { messages: { role: string }[] }).messages;
			return messages.at(-1)?.role === "tool"
				? { text: "env printed" }
				: { toolCalls: [{ name: "bash", args: { command: "env; echo EXIT=$?" } }] };
		});
		const home = tempHome();
		root = home.root;
		const base = server.url.replace("://", `://gar:${PASSWORD}@`);
		const env = { ...home.env, OPENAI_API_KEY: KEY, GITHUB_TOKEN: TOKEN, OPENAI_BASE_URL: base };
		text = await runGar(["-p", "print the environment", "--provider", "openai"], { env, cwd: home.project });
		stream = await runGar(["-p", "print it again", "--provider", "openai", "--output", "stream-json"], {
			env,
			cwd: home.project,
		});
	});
	afterAll(() => server.close());

	it("runs the command for real (the test would prove nothing otherwise)", () => {
		expect(text.stderr).toBe("");
		expect(text.code).toBe(0);
		expect(text.stdout).toContain("env printed");
		expect(sessionText(root)).toContain("EXIT=0");
		expect(sessionText(root)).toContain("PATH=");
	});

	it("keeps them out of stdout and stderr (text)", () => {
		expect(leaks(text.stdout + text.stderr)).toEqual([]);
	});

	it("keeps them out of stdout and stderr (stream-json)", () => {
		expect(stream.code).toBe(0);
		expect(leaks(stream.stdout + stream.stderr)).toEqual([]);
	});

	it("keeps them out of the session files", () => {
		expect(leaks(sessionText(root))).toEqual([]);
	});

	it("keeps them out of what the model is sent", () => {
		const bodies = server.requests.map((request) => JSON.stringify(request.body));
		expect(bodies.length).toBe(4);
		expect(leaks(bodies.join("\n"))).toEqual([]);
	});

	it("gives the commands the user's NODE_ENV (none here), not the one gar set for itself", () => {
		expect(sessionText(root)).not.toContain("NODE_ENV=");
	});
});
