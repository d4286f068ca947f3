// gar mcp, driven by the MCP SDK's own Client over stdio (spawning the built CLI), against the wire-level test server.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { GAR_BIN, tempHome } from "./support/cli.js";
import { startWireServer, type WireServer, type WireTurn } from "./support/wire-server.js";

const KEY = "sk-test-mcp-key-0123456789";

let server: WireServer | undefined;
let client: Client | undefined;
afterEach(async () => {
	await client?.close();
	client = undefined;
	await server?.close();
	server = undefined;
});

async function connect(turns: WireTurn[], extra: string[] = []) {
	server = await startWireServer(turns);
	const home = tempHome();
	writeFileSync(join(home.project, "greet.txt"), "hello world\n");
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [GAR_BIN, "--provider", "openai", "--base-url", server.url, "mcp", ...extra],
		env: { ...home.env, OPENAI_API_KEY: KEY } as Record<string, string>,
		cwd: home.project,
		stderr: "pipe",
	});
	client = new Client({ name: "gar-test", version: "1.0.0" });
	await client.connect(transport);
	return { ...home, client, transport };
}

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe("gar mcp", () => {
	it("lists gar and gar_reply with their input and output schemas", async () => {
		const { client } = await connect([]);
		const { tools } = await client.listTools();
		expect(tools.map((t) => t.name)).toEqual(["gar", "gar_reply"]);
		expect(tools[0]?.inputSchema).toMatchObject({ type: "object", required: ["prompt"] });
		expect(Object.keys(tools[0]?.inputSchema.properties ?? {})).toEqual([
			"prompt",
			"cwd",
			"model",
			"provider",
			"approval",
			"schema",
			"max_turns",
		]);
		expect(tools[1]?.inputSchema).toMatchObject({ required: ["session_id", "prompt"] });
		expect(tools[0]?.outputSchema).toMatchObject({
			required: ["sessionId", "stopReason", "turns", "usage", "costUsd"],
		});
	});

	it("runs gar with progress per tool step, usage in structuredContent; gar_reply continues the session", async () => {
		const { client, project } = await connect([
			{ toolCalls: [{ id: "r", name: "read", args: { path: "greet.txt" } }], usage: { input: 100, output: 10 } },
			{
				toolCalls: [
					{ id: "e", name: "edit", args: { path: "greet.txt", edits: [{ oldText: "world", newText: "gar" }] } },
				],
				usage: { input: 200, output: 20 },
			},
			{ text: "Changed it.", usage: { input: 300, output: 5 } },
			{ text: "It says hello gar.", usage: { input: 400, output: 6 } },
		]);
		const steps: string[] = [];
		const first = (await client.callTool({ name: "gar", arguments: { prompt: "change world to gar" } }, undefined, {
			onprogress: (p) => steps.push(`${p.progress} ${p.message}`),
		})) as CallToolResult;
		expect(first.isError).toBe(false);
		expect(textOf(first)).toBe("Changed it.");
		expect(first.structuredContent).toMatchObject({
			sessionId: expect.stringMatching(/^[0-9a-z]+$/),
			stopReason: "done",
			turns: 3,
			usage: { input: 600, output: 35 },
			costUsd: expect.any(Number),
		});
		expect(steps).toEqual(["1 read greet.txt", "2 edit greet.txt"]);
		expect(readFileSync(join(project, "greet.txt"), "utf8")).toBe("hello gar\n");

		const sessionId = first.structuredContent?.sessionId as string;
		const second = (await client.callTool({
			name: "gar_reply",
			arguments: { session_id: sessionId, prompt: "what does it say now?" },
		})) as CallToolResult;
		expect(textOf(second)).toBe("It says hello gar.");
		expect(second.structuredContent).toMatchObject({ sessionId, turns: 1, usage: { input: 400, output: 6 } });
		const last = JSON.stringify(server?.requests.at(-1)?.body);
		expect(last).toContain("change world to gar");
		expect(last).toContain("what does it say now?");
	});

	it("returns the schema's answer as structured, and refuses bad arguments and unknown sessions in words", async () => {
		const { client } = await connect([{ text: '{"answer": 42}' }]);
		const schema = { type: "object", properties: { answer: { type: "number" } }, required: ["answer"] };
		const result = (await client.callTool({ name: "gar", arguments: { prompt: "answer", schema } })) as CallToolResult;
		expect(result.structuredContent).toMatchObject({ structured: { answer: 42 }, stopReason: "done" });
		const bad = (await client.callTool({
			name: "gar",
			arguments: { prompt: "x", cwd: "/no/such/dir" },
		})) as CallToolResult;
		expect(bad).toMatchObject({ isError: true });
		expect(textOf(bad)).toBe("cwd /no/such/dir does not exist");
		const unknown = (await client.callTool({
			name: "gar_reply",
			arguments: { session_id: "zzzzzzzzzzzz", prompt: "hi" },
		})) as CallToolResult;
		expect(unknown.isError).toBe(true);
		expect(textOf(unknown)).toMatch(/^no session matches "zzzzzzzzzzzz"/);
	});

	it("approval ask refuses write, edit and bash headless, as gar -p --approve does", async () => {
		const { client, project } = await connect([
			{ toolCalls: [{ id: "w", name: "write", args: { path: "x.txt", content: "x" } }] },
			{ text: "could not write" },
		]);
		const result = (await client.callTool({
			name: "gar",
			arguments: { prompt: "write x", approval: "ask" },
		})) as CallToolResult;
		expect(textOf(result)).toBe("could not write");
		expect(existsSync(join(project, "x.txt"))).toBe(false);
		expect(JSON.stringify(server?.requests[1]?.body)).toContain("The user denied this write call");
	});

	it("a cancelled call aborts its run: the command is killed, the server goes on", async () => {
		const { client, project } = await connect([
			{ toolCalls: [{ id: "s", name: "bash", args: { command: "echo $$ > pid; sleep 30" } }] },
			{ text: "after" },
		]);
		const controller = new AbortController();
		const call = client.callTool({ name: "gar", arguments: { prompt: "sleep" } }, undefined, {
			signal: controller.signal,
			onprogress: () => {
				setTimeout(() => controller.abort(), 200);
			},
		});
		await expect(call).rejects.toThrow();
		const pid = Number(readFileSync(join(project, "pid"), "utf8"));
		const deadline = Date.now() + 3000;
		while (Date.now() < deadline && existsSync(`/proc/${pid}`)) await new Promise((resolve) => setTimeout(resolve, 20));
		expect(existsSync(`/proc/${pid}`)).toBe(false);
		const next = (await client.callTool({ name: "gar", arguments: { prompt: "again" } })) as CallToolResult;
		expect(textOf(next)).toBe("after");
	});

	it("--tools exposes read, write, edit and bash; bash runs without the key in its environment", async () => {
		const { client, project } = await connect([], ["--tools"]);
		const { tools } = await client.listTools();
		expect(tools.map((t) => t.name)).toEqual(["read", "write", "edit", "bash"]);
		const env = (await client.callTool({ name: "bash", arguments: { command: "env; echo $PWD" } })) as CallToolResult;
		expect(env.isError).toBe(false);
		expect(textOf(env)).not.toContain("OPENAI_API_KEY");
		expect(textOf(env)).not.toContain(KEY);
		expect(textOf(env)).toContain(project);
		expect(env.structuredContent).toMatchObject({ kind: "bash", exitCode: 0 });
		const read = (await client.callTool({ name: "read", arguments: { path: "greet.txt" } })) as CallToolResult;
		expect(textOf(read)).toBe("1\thello world");
		const invalid = (await client.callTool({ name: "read", arguments: {} })) as CallToolResult;
		expect(invalid.isError).toBe(true);
		expect(textOf(invalid)).toMatch(/^Invalid arguments for read/);
	});
});
