// gar acp and gar mcp against raw, careless and hostile input: every line is answered, none crashes the server.
import { describe, expect, it } from "vitest";
import { spawnGarPiped, tempHome } from "./support/cli.js";

const errorOf = (line: Record<string, unknown> | undefined) => line?.error as { code: number; message: string };

describe("gar acp with bad input", () => {
	it("answers malformed JSON, a request before initialize, an unknown method and bad parameters, and goes on", async () => {
		const { project, env } = tempHome();
		const gar = spawnGarPiped(["acp"], { env, cwd: project });
		gar.send({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: project, mcpServers: [] } });
		gar.send("{this is not json");
		gar.send({ jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } });
		gar.send({ jsonrpc: "2.0", id: 3, method: "session/fly", params: {} });
		gar.send({ jsonrpc: "2.0", id: 4, method: "session/new", params: { cwd: "relative/dir", mcpServers: [] } });
		gar.send({ jsonrpc: "2.0", id: 5, method: "session/new", params: { cwd: "/no/such/dir", mcpServers: [] } });
		gar.send({
			jsonrpc: "2.0",
			id: 6,
			method: "session/load",
			params: { cwd: project, sessionId: "../../x", mcpServers: [] },
		});
		gar.send({ jsonrpc: "2.0", id: 7, method: "session/prompt", params: { sessionId: "nosuch", prompt: [] } });
		// No key in this environment: a session needs one, and authenticate says which to set.
		gar.send({ jsonrpc: "2.0", id: 8, method: "session/new", params: { cwd: project, mcpServers: [] } });
		gar.send({ jsonrpc: "2.0", id: 9, method: "authenticate", params: { methodId: "gar-config" } });
		// Answers come as each request is done, not necessarily in order.
		for (let id = 1; id <= 9; id++) await gar.waitFor((l) => l.id === id);
		const last = gar.lines().find((l) => l.id === 9);
		const byId = (id: number) => gar.lines().find((l) => l.id === id);
		expect(errorOf(byId(1))).toMatchObject({ code: -32600, message: expect.stringContaining("initialized") });
		expect(gar.lines().find((l) => l.id === null)).toMatchObject({ error: { code: -32700 } });
		expect(byId(2)).toMatchObject({ result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } });
		expect(errorOf(byId(3)).code).toBe(-32601);
		expect(errorOf(byId(4))).toMatchObject({ code: -32602, message: expect.stringContaining("absolute path") });
		expect(errorOf(byId(5))).toMatchObject({ code: -32602, message: expect.stringContaining("does not exist") });
		expect(errorOf(byId(6))).toMatchObject({ code: -32602, message: expect.stringContaining("letters and digits") });
		expect(errorOf(byId(7)).code).toBe(-32002);
		expect(errorOf(byId(8))).toMatchObject({ code: -32000, message: expect.stringContaining("ANTHROPIC_API_KEY") });
		expect(errorOf(last)).toMatchObject({ code: -32000, message: expect.stringContaining("ANTHROPIC_API_KEY") });
		gar.child.stdin?.end();
		expect(await gar.closed).toBe(0);
		expect(gar.stderr()).not.toContain("unexpected");
	});
});

describe("gar mcp with bad input", () => {
	it("answers a line that is not JSON and one over 32 MB, refuses unknown tools, and ends when stdin closes", async () => {
		const { project, env } = tempHome();
		const gar = spawnGarPiped(["mcp"], { env, cwd: project });
		gar.send("][");
		gar.child.stdin?.write(Buffer.alloc(33 * 1024 * 1024, 0x7b));
		gar.send("");
		const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } };
		gar.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: init });
		gar.send({ jsonrpc: "2.0", method: "notifications/initialized" });
		gar.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "rm_rf", arguments: {} } });
		gar.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "gar", arguments: { prompt: 42 } } });
		await gar.waitFor((l) => l.id === 3);
		const refused = gar.lines().filter((l) => l.id === null);
		expect(refused.map((l) => errorOf(l).code)).toEqual([-32700, -32600]);
		expect(errorOf(gar.lines().find((l) => l.id === 2))).toMatchObject({ code: -32602 });
		expect(gar.lines().find((l) => l.id === 3)).toMatchObject({
			result: { isError: true, content: [{ type: "text", text: expect.stringMatching(/^Invalid arguments for gar/) }] },
		});
		gar.child.stdin?.end();
		expect(await gar.closed).toBe(0);
	}, 20_000);
});
