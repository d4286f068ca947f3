import { readFileSync } from "node:fs";
import { EventChannel } from "../agent/channel.js";
import { Agent, type ApproveFn } from "../agent/loop.js";
import type { OutputSchema } from "../agent/structured.js";
import { type ConfigFlags, configPaths, type GarConfig, loadConfig, resolveRun } from "../config/index.js";
import { UsageError } from "../errors.js";
import { createProvider } from "../llm/index.js";
import { defaultModel } from "../llm/models.js";
import type { Message } from "../llm/types.js";
import { loadContextFiles } from "../prompt/context-files.js";
import { buildSystemPrompt, textOrFile } from "../prompt/system-prompt.js";
import { createTools, TOOL_NAMES } from "../tools/index.js";

export type RunFlags = ConfigFlags & {
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
	warnings: string[];
	provider: string;
	model: string;
};

/** Reads a JSON Schema file and compiles a validator for it (ajv is loaded only when a schema is used). */
export async function loadOutputSchema(file: string, cwd: string): Promise<OutputSchema> {
	let schema: Record<string, unknown>;
	try {
		schema = JSON.parse(readFileSync(textOrFilePath(file, cwd), "utf8"));
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

function textOrFilePath(file: string, cwd: string): string {
	return file.startsWith("/") ? file : `${cwd}/${file}`;
}

/**
 * Everything a run needs, from flags, environment and config files: the provider (only its SDK is loaded),
 * the tools, the system prompt and the agent with its event channel. Throws UsageError or ConfigError.
 */
export async function setupRun(
	flags: RunFlags,
	env: NodeJS.ProcessEnv,
	history: Message[] = [],
	approve?: ApproveFn,
): Promise<Setup> {
	const loaded = loadConfig({ cwd: flags.cwd, env, flags });
	const { config } = loaded;
	const run = resolveRun(config, env, defaultModel);
	const toolNames = flags.tools ?? [...TOOL_NAMES];
	const unknown = toolNames.filter((t) => !(TOOL_NAMES as readonly string[]).includes(t));
	if (unknown.length) {
		throw new UsageError(`--tools: unknown tool ${unknown.join(", ")} (choose from ${TOOL_NAMES.join(", ")})`);
	}
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
	const provider = await createProvider(run.provider, {
		...(run.apiKey === undefined ? {} : { apiKey: run.apiKey }),
		...(run.baseUrl === undefined ? {} : { baseURL: run.baseUrl }),
	});
	const output = flags.schema ? await loadOutputSchema(flags.schema, flags.cwd) : undefined;
	const channel = new EventChannel((error, event) => {
		process.stderr.write(
			`gar: a listener failed on ${event.type}: ${error instanceof Error ? error.message : error}\n`,
		);
	});
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
		history,
	);
	return { agent, channel, config, warnings: loaded.warnings, provider: run.provider, model: run.model };
}
