import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { EventChannel } from "../agent/channel.js";
import { Agent, type ApproveFn } from "../agent/loop.js";
import type { OutputSchema } from "../agent/structured.js";
import { type ConfigFlags, configPaths, type GarConfig, loadConfig, resolveRun } from "../config/index.js";
import { UsageError } from "../errors.js";
import { createProvider } from "../llm/index.js";
import { defaultModel } from "../llm/models.js";
import { loadContextFiles } from "../prompt/context-files.js";
import { buildSystemPrompt, textOrFile } from "../prompt/system-prompt.js";
import type { SessionWriter } from "../session/index.js";
import { createTools, TOOL_NAMES } from "../tools/index.js";
import { openRunSession, type SessionFlags } from "./run-session.js";

export type RunFlags = ConfigFlags &
	SessionFlags & {
		cwd: string;
		tools?: string[];
		systemPrompt?: string;
		appendSystemPrompt?: string;
		schema?: string;
	};

export type Setup = {
	agent: Agent;
	channel: EventChannel;
	config: GarConfig;
	/** The session the run is saved to; null with --no-session. */
	session: SessionWriter | null;
	warnings: string[];
	provider: string;
	model: string;
};

/** Reads a JSON Schema file and compiles a validator for it (ajv is loaded only when a schema is used). */
export async function loadOutputSchema(file: string, cwd: string): Promise<OutputSchema> {
	let schema: Record<string, unknown>;
	try {
		schema = JSON.parse(readFileSync(isAbsolute(file) ? file : join(cwd, file), "utf8"));
	} catch (error) {
		throw new UsageError(`--schema ${file}: ${error instanceof Error ? error.message : String(error)}`);
	}
	const { compileValidator } = await import("../agent/validate.js");
	try {
		return { name: "final_answer", schema, validate: compileValidator(schema) };
	} catch (error) {
		throw new UsageError(
			`--schema ${file} is not a valid JSON Schema: ${error instanceof Error ? error.message : error}`,
		);
	}
}

function checkTools(names: string[]): void {
	const unknown = names.filter((t) => !(TOOL_NAMES as readonly string[]).includes(t));
	if (unknown.length) {
		throw new UsageError(`--tools: unknown tool ${unknown.join(", ")} (choose from ${TOOL_NAMES.join(", ")})`);
	}
}

/**
 * Everything a run needs, from flags, environment and config files: the session (new, continued or branched),
 * the provider (only its SDK is loaded), the tools, the system prompt and the agent with its event channel.
 * The session writer is already subscribed to the channel. Throws UsageError, ConfigError or SessionError.
 */
export async function setupRun(flags: RunFlags, env: NodeJS.ProcessEnv, approve?: ApproveFn): Promise<Setup> {
	const toolNames = flags.tools ?? [...TOOL_NAMES];
	checkTools(toolNames);
	const loaded = loadConfig({ cwd: flags.cwd, env, flags });
	const { config } = loaded;
	const opened = openRunSession(flags, config.session.dir, flags.cwd);
	// A resumed session keeps its model unless the person picked another one for this run.
	const resumed = opened.model;
	const useSessionModel =
		resumed && !flags.model && !flags.provider && (resumed.provider === "anthropic" || resumed.provider === "openai");
	const run = resolveRun(
		useSessionModel
			? { ...config, provider: resumed.provider as "anthropic" | "openai", model: resumed.model }
			: config,
		env,
		defaultModel,
	);
	const tools = createTools({ cwd: flags.cwd, bashTimeoutMs: config.agent.bashTimeout * 1000 }).filter((t) =>
		toolNames.includes(t.name),
	);
	const system = buildSystemPrompt({
		cwd: flags.cwd,
		tools: tools.map((t) => t.name),
		date: new Date(),
		contextFiles: loadContextFiles(flags.cwd, configPaths(loaded.home, env).configDir),
		...(flags.systemPrompt === undefined ? {} : { replace: textOrFile(flags.systemPrompt, flags.cwd) }),
		...(flags.appendSystemPrompt === undefined ? {} : { append: textOrFile(flags.appendSystemPrompt, flags.cwd) }),
	});
	const output = flags.schema ? await loadOutputSchema(flags.schema, flags.cwd) : undefined;
	const provider = await createProvider(run.provider, {
		...(run.apiKey === undefined ? {} : { apiKey: run.apiKey }),
		...(run.baseUrl === undefined ? {} : { baseURL: run.baseUrl }),
	});
	const channel = new EventChannel((error, event) => {
		process.stderr.write(
			`gar: a listener failed on ${event.type}: ${error instanceof Error ? error.message : error}\n`,
		);
	});
	const session = opened.open();
	session?.attach(channel);
	const agent = new Agent(
		{
			provider,
			model: run.model,
			system,
			tools,
			channel,
			maxTurns: config.agent.maxTurns,
			thinking: config.agent.thinking,
			autoApprove: config.agent.autoApprove,
			...(config.agent.approve && approve ? { approve } : {}),
			...(output ? { output } : {}),
		},
		opened.history,
	);
	return {
		agent,
		channel,
		config,
		session,
		warnings: [...loaded.warnings, ...opened.warnings],
		provider: run.provider,
		model: run.model,
	};
}
