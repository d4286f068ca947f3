import { join } from "node:path";
import { EventChannel } from "../agent/channel.js";
import type { HookRun } from "../agent/events.js";
import type { OutputSchema } from "../agent/structured.js";
import {
	type ConfigFlags,
	configPaths,
	type GarConfig,
	type LoadResult,
	loadConfig,
	MissingKeyError,
	type ProviderName,
	projectRoot,
	resolveRun,
	runnableHooks,
} from "../config/index.js";
import type { RunSettings } from "../config/resolve.js";
import { saveRule } from "../config/rule-writer.js";
import { type AskFn, Conversation } from "../conversation/conversation.js";
import { reportToParent } from "../conversation/parent-report.js";
import { UsageError } from "../errors.js";
import { userinfoOf } from "../llm/errors.js";
import { createNodeFetch } from "../llm/http-fetch.js";
import { createProvider } from "../llm/index.js";
import { type ListedModel, listServerModels } from "../llm/model-list.js";
import { defaultModel, findModel, type Pricing } from "../llm/models.js";
import type { Provider } from "../llm/types.js";
import { unconfiguredProvider } from "../llm/unconfigured.js";
import { contextWindowFromServer } from "../llm/window-query.js";
import { loadContextFiles } from "../prompt/context-files.js";
import { buildSystemPrompt, textOrFile } from "../prompt/system-prompt.js";
import type { RewindReport } from "../rewind/rewind.js";
import { type Session, SessionWriter } from "../session/index.js";
import { createTools, defaultOutputDir, type FileAccess, reapOutputs, TOOL_NAMES } from "../tools/index.js";
import { toolEnv, userNodeEnv } from "../tools/tool-env.js";
import {
	isProviderName,
	type ModelRow,
	modelChoices,
	modelRows,
	parseModelSpec,
	type Reach,
	refuseSwitch,
	servesAnyId,
	unknownModelNote,
} from "./model-switch.js";
import { loadOutputSchema } from "./output-schema.js";
import { openRunSession, resolveRunSession, type SessionFlags } from "./run-session.js";

export type RunFlags = ConfigFlags &
	SessionFlags & {
		cwd: string;
		tools?: string[];
		systemPrompt?: string;
		appendSystemPrompt?: string;
		schema?: string;
		/** --no-hooks: no hook runs. */
		noHooks?: boolean;
	};

export type Setup = {
	conversation: Conversation;
	channel: EventChannel;
	config: GarConfig;
	/** Secret values in use (the API key, a base URL's password): masked in every saved or printed event. */
	secrets: string[];
	warnings: string[];
	/** What -p --rewind-to did before the run. */
	rewound?: RewindReport & { session: string };
	provider: string;
	model: string;
	/** The idle timeout of the provider in use now (`/model` may switch it): a silent reply is abandoned after it. */
	idleTimeoutMs(): number;
	/** Set when no API key was found and `allowMissingKey` was given: what to set, in words. */
	missingKey?: string;
	/**
	 * `/model SPEC` (`NAME`, or `anthropic/NAME` / `openai/NAME` for a provider switch): the provider and model to
	 * switch to, with a note for a model gar does not know; or why not, in words that say what to do.
	 */
	providerFor(spec: string): Promise<ModelSwitch>;
	/** What `/model` completes for the provider in use now (model_switch.ts modelChoices). */
	modelChoices(): string[];
	/** The model picker's rows (model-switch.ts modelRows), with what the servers listed so far. */
	modelRows(): ModelRow[];
	/**
	 * Asks each OpenAI-compatible server for its models (at most a short timeout; once listed, not again); resolves
	 * with a line saying which could not be listed (their rows stay gar's table), or null.
	 */
	listModels(): Promise<string | null>;
	/**
	 * Settles once the window of a model neither gar nor the config knows has been asked of its server (at most
	 * WINDOW_QUERY_MS; at once when nothing is asked). Headless runs wait for it; the app does not.
	 */
	windowKnown: Promise<void>;
	/**
	 * Set when hooks run in this conversation (some are configured, may run, and --no-hooks was not given): a hook
	 * run's line for a person, when it is worth one (it blocked, failed or said something); else undefined.
	 */
	hookNote?: (run: HookRun) => string | undefined;
};

export type ModelSwitch =
	| { provider: Provider; model: string; contextWindow: number | null; note: string | null; prices?: Pricing }
	| { error: string };

/** The cache of full command outputs is kept under these caps (total size, age). */
const OUTPUT_CACHE_BYTES = 1024 * 1024 * 1024;
const OUTPUT_CACHE_AGE_MS = 7 * 24 * 3600 * 1000;

function checkTools(names: string[]): void {
	const unknown = names.filter((t) => !(TOOL_NAMES as readonly string[]).includes(t));
	if (unknown.length) {
		throw new UsageError(`--tools: unknown tool ${unknown.join(", ")} (choose from ${TOOL_NAMES.join(", ")})`);
	}
}

/** A listener that throws is reported as a notice on the channel itself (never across a full-screen UI). */
function createChannel(): EventChannel {
	const channel: EventChannel = new EventChannel((error, event) => {
		if (event.type === "notice") return; // a failing notice listener must not loop
		const why = error instanceof Error ? error.message : String(error);
		channel.emit({ type: "notice", level: "error", message: `a listener failed on ${event.type}: ${why}` });
	});
	return channel;
}

export type SetupOptions = {
	/** Answers approval questions (none: mutating calls are denied when approval is required). */
	ask?: AskFn;
	/** Without a key, set up anyway with a provider that explains what to set (the interactive UI's first run). */
	allowMissingKey?: boolean;
	/** Use this provider and model instead of the configured ones (gar demo's scripted model). */
	override?: { provider: Provider; model: string };
	/** A new session's file appears only with its first entry (interactive: nobody may type anything). */
	lazySession?: boolean;
	/** An editor's text of the files (ACP): read, write and edit go through it. */
	files?: FileAccess;
	/** The final answer must match this schema (a schema given as a value, not as --schema's file). */
	output?: OutputSchema;
	/**
	 * Awaited with a continued session's file (--session, -c) once the config is read, before the file is (the app);
	 * the Session it gives (the file as it just loaded it) is used instead of reading the file again.
	 */
	beforeSessionLoad?: (file: string) => Promise<Session | undefined>;
};

/** What the SDK adapter needs from the run settings. */
function providerOptions(run: RunSettings) {
	return {
		idleTimeoutMs: run.idleTimeoutMs,
		...(run.apiKey === undefined ? {} : { apiKey: run.apiKey }),
		...(run.baseUrl === undefined ? {} : { baseURL: run.baseUrl }),
		...(run.thinkTags === undefined ? {} : { thinkTags: run.thinkTags }),
	};
}

/**
 * Both providers as `/model` may use them: the one gar started with (`run`), and the other from its own table and
 * environment (a top-level `base_url` or `model` belongs to the first). Settings are null where a key is missing.
 */
function providerReaches(
	config: GarConfig,
	env: NodeJS.ProcessEnv,
	start: { run: RunSettings; missingKey?: string },
	profileModels: LoadResult["profileModels"],
): Reaches {
	const of = (name: ProviderName) => {
		const profiles = profileModels.filter((p) => (p.provider ?? config.provider) === name).map((p) => p.model);
		let settings: RunSettings | null;
		let missingKey: string | null = null;
		if (name === start.run.provider) {
			settings = start.missingKey ? null : start.run;
			if (start.missingKey) missingKey = start.run.apiKeyEnv;
		} else {
			try {
				settings = resolveRun({ ...config, provider: name, model: undefined, baseUrl: undefined }, env, defaultModel);
			} catch (error) {
				if (!(error instanceof MissingKeyError)) throw error;
				settings = null;
				missingKey = error.keyEnv;
			}
		}
		const table = config.providers[name];
		const reach: Reach = {
			name,
			missingKey,
			model: name === start.run.provider ? start.run.model : (table.model ?? defaultModel(name)),
			profileModels: profiles,
		};
		const baseUrl = settings?.baseUrl;
		if (baseUrl !== undefined) reach.baseUrl = baseUrl;
		if (settings?.contextWindow !== undefined) reach.contextWindow = settings.contextWindow;
		if (settings?.prices) reach.priced = true;
		return { reach, settings };
	};
	return { anthropic: of("anthropic"), openai: of("openai") };
}

type Reaches = Record<ProviderName, { reach: Reach; settings: RunSettings | null }>;

/** The run settings, or (when allowed) settings without a key and the explanation of what to set. */
function resolveOrExplain(
	config: GarConfig,
	env: NodeJS.ProcessEnv,
	allowMissingKey: boolean,
): { run: RunSettings; missingKey?: string } {
	try {
		return { run: resolveRun(config, env, defaultModel) };
	} catch (error) {
		if (!(allowMissingKey && error instanceof MissingKeyError)) throw error;
		const table = config.providers[config.provider];
		const model = config.model ?? table.model ?? defaultModel(config.provider);
		const run: RunSettings = { provider: config.provider, model, apiKeyEnv: error.keyEnv, idleTimeoutMs: 300_000 };
		return { run, missingKey: error.message };
	}
}

/**
 * Everything a conversation needs, from flags, environment and config files: the session (new, continued or
 * branched), the provider (only its SDK is loaded), the tools, the system prompt, and the Conversation that owns
 * them, recording to the session. Throws UsageError, ConfigError or SessionError.
 */
export async function setupRun(flags: RunFlags, env: NodeJS.ProcessEnv, options: SetupOptions = {}): Promise<Setup> {
	const toolNames = flags.tools ?? [...TOOL_NAMES];
	checkTools(toolNames);
	const { loaded, opened, runConfig, run, missingKey } = await runSettings(flags, env, options);
	const { config } = loaded;
	const system = systemPrompt(flags, toolNames, configPaths(loaded.home, env).configDir);
	const output = options.output ?? (flags.schema ? await loadOutputSchema(flags.schema, flags.cwd) : undefined);
	const provider =
		options.override?.provider ??
		(missingKey
			? unconfiguredProvider(run.provider, missingKey)
			: await createProvider(run.provider, providerOptions(run)));
	const reaches = providerReaches(runConfig, env, { run, ...(missingKey ? { missingKey } : {}) }, loaded.profileModels);
	// Masked in every session line and stream-json line: the keys `/model` may use and any password in a base URL.
	const secrets = [reaches.anthropic.settings, reaches.openai.settings]
		.flatMap((s) => (s ? [s.apiKey, ...userinfoOf(s.baseUrl)] : []))
		.filter((s): s is string => !!s);
	const session = opened.open(secrets, options.lazySession);
	const { tools, toolsEnv } = runTools(flags, toolNames, loaded, env, session?.session.header.id, options.files);
	const hooks = flags.noHooks ? undefined : await loadHooks(loaded, flags.cwd, toolsEnv);
	const channel = createChannel();
	const conversation = new Conversation({
		channel,
		provider,
		model: run.model,
		contextWindow: run.contextWindow ?? config.context.window ?? findModel(run.model)?.contextWindow ?? null,
		...(run.prices ? { prices: run.prices } : {}),
		system,
		tools,
		history: opened.history,
		session,
		openSession: () =>
			flags.noSession
				? null
				: SessionWriter.create({
						dir: config.session.dir,
						cwd: flags.cwd,
						secrets,
						lazy: options.lazySession ?? false,
					}),
		maxTurns: config.agent.maxTurns,
		thinking: config.agent.thinking,
		loopGuard: config.agent.loopGuard,
		context: config.context,
		...(output ? { output } : {}),
		approval: {
			required: config.agent.approve,
			autoApprove: config.agent.autoApprove,
			rules: loaded.rules,
			// "Commands starting with …" goes to the user's own file, never a project's.
			saveRule: (rule) => saveRule(configPaths(loaded.home, env).configFile, rule, loaded.home),
			home: loaded.home,
			...(options.ask ? { ask: options.ask } : {}),
		},
		...(hooks ? { hooks } : {}),
	});
	// Under a parent gar (its bash command set GAR_SUBAGENT_REPORT): say what this one spent when it exits.
	reportToParent(conversation, env);
	const asked = options.override ? null : serverWindow(run, run.model, missingKey === undefined);
	const windowKnown = asked
		? asked.then((window) => {
				if (window !== null && conversation.model.contextWindow === null) conversation.setContextWindow(window);
			})
		: Promise.resolve();
	return {
		conversation,
		channel,
		config,
		secrets,
		warnings: [...loaded.warnings, ...opened.warnings],
		...(opened.rewound ? { rewound: opened.rewound } : {}),
		...(missingKey ? { missingKey } : {}),
		provider: provider.name,
		model: run.model,
		windowKnown,
		...(hooks ? { hookNote: await hookNotes() } : {}),
		...modelSwitching(conversation, run, reaches, options.override),
	};
}

/** How a headless mode tells a person of a hook run (view/hook-line.ts, loaded only when hooks run). */
async function hookNotes(): Promise<(run: HookRun) => string | undefined> {
	const { hookLine, hookNotable } = await import("../view/hook-line.js");
	return (run) => (hookNotable(run) ? hookLine(run) : undefined);
}

/**
 * The hooks that may run (the user's, a trusted project's unchanged ones), in the tools' environment; their code is
 * loaded only when there is one (no hook: no cost).
 */
async function loadHooks(loaded: LoadResult, cwd: string, env: NodeJS.ProcessEnv) {
	const hooks = runnableHooks(loaded.hooks);
	if (hooks.length === 0) return undefined;
	const { Hooks } = await import("../hooks/index.js");
	return new Hooks({ hooks, projectDir: projectRoot(cwd), cwd, env });
}

/**
 * The configuration, the session to continue (if any), and the provider and model of this run: a resumed session's
 * own unless the person picked another one, the scripted one of `override`, or (when allowed) one without a key.
 */
async function runSettings(flags: RunFlags, env: NodeJS.ProcessEnv, options: SetupOptions) {
	const loaded = loadConfig({ cwd: flags.cwd, env, flags, ...(flags.noHooks ? { noHooks: true } : {}) });
	const { config } = loaded;
	const resolved = resolveRunSession(flags, config.session.dir, flags.cwd);
	// The app may read the file itself (sliced, answering keys meanwhile): then it is not read again.
	const read = resolved.file && options.beforeSessionLoad ? await options.beforeSessionLoad(resolved.file) : undefined;
	const opened = openRunSession(flags, config.session.dir, flags.cwd, read ? { ...resolved, session: read } : resolved);
	// A resumed session keeps its model unless the person picked another one for this run.
	const resumed = opened.model;
	const useSessionModel =
		resumed && !flags.model && !flags.provider && (resumed.provider === "anthropic" || resumed.provider === "openai");
	const runConfig = useSessionModel
		? { ...config, provider: resumed.provider as "anthropic" | "openai", model: resumed.model }
		: config;
	const { override } = options;
	const { run, missingKey } = override
		? { run: { provider: config.provider, model: override.model, apiKeyEnv: "", idleTimeoutMs: 300_000 } }
		: resolveOrExplain(runConfig, env, options.allowMissingKey ?? false);
	return { loaded, opened, runConfig, run, missingKey };
}

/** The system prompt: gar's own (or --system-prompt's), the context files, --append-system-prompt. */
function systemPrompt(flags: RunFlags, toolNames: string[], configDir: string) {
	return buildSystemPrompt({
		cwd: flags.cwd,
		tools: TOOL_NAMES.filter((name) => toolNames.includes(name)),
		date: new Date(),
		contextFiles: loadContextFiles(flags.cwd, configDir),
		...(flags.systemPrompt === undefined ? {} : { replace: textOrFile(flags.systemPrompt, flags.cwd) }),
		...(flags.appendSystemPrompt === undefined ? {} : { append: textOrFile(flags.appendSystemPrompt, flags.cwd) }),
	});
}

/**
 * The tools named, given the user's environment (without gar's secrets), and that environment; full outputs of long
 * commands go to gar's cache, per session.
 */
function runTools(
	flags: RunFlags,
	toolNames: string[],
	loaded: LoadResult,
	env: NodeJS.ProcessEnv,
	sessionId: string | undefined,
	files?: FileAccess,
) {
	const { config } = loaded;
	// Commands get the user's environment, not gar's secrets (see README "Secrets and the tools' environment").
	const toolsEnv = toolEnv(env, {
		secretVars: loaded.secretVars,
		passEnv: config.tools.passEnv,
		userNodeEnv: userNodeEnv(env),
	});
	// Old outputs are reaped at start-up.
	const outputs = defaultOutputDir();
	reapOutputs(outputs, { maxBytes: OUTPUT_CACHE_BYTES, maxAgeMs: OUTPUT_CACHE_AGE_MS });
	const tools = createTools({
		cwd: flags.cwd,
		bashTimeoutMs: config.agent.bashTimeout * 1000,
		env: toolsEnv,
		outputDir: join(outputs, sessionId ?? "unsaved"),
		...(files ? { files } : {}),
	}).filter((t) => toolNames.includes(t.name));
	// Hooks get the same environment: no API keys.
	return { tools, toolsEnv };
}

/**
 * The tools alone, as a conversation would get them (`gar mcp --tools`): the same limits, the same scrubbed
 * environment, and the configuration's approval settings; `secrets`: the values of the key variables. Throws
 * UsageError or ConfigError.
 */
export function setupTools(flags: RunFlags, env: NodeJS.ProcessEnv) {
	const toolNames = flags.tools ?? [...TOOL_NAMES];
	checkTools(toolNames);
	const loaded = loadConfig({ cwd: flags.cwd, env, flags });
	return {
		tools: runTools(flags, toolNames, loaded, env, undefined).tools,
		config: loaded.config,
		warnings: loaded.warnings,
		// The values of the key variables, masked in what the tools return (their commands never see them).
		secrets: loaded.secretVars.flatMap((name) => env[name] ?? []),
	};
}

/**
 * The window of `model` as its server says it: asked only of an OpenAI-compatible server at a base URL when neither
 * gar's table nor the config knows it (once per server and model, with a short timeout); null when no one answers.
 */
function serverWindow(settings: RunSettings, model: string, usable: boolean): Promise<number | null> | null {
	const known = settings.contextWindow !== undefined || findModel(model) !== undefined;
	if (known || !usable || settings.provider !== "openai" || !settings.baseUrl) return null;
	return contextWindowFromServer({
		baseUrl: settings.baseUrl,
		model,
		fetch: createNodeFetch(),
		...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
	}).then((answer) => answer?.window ?? null);
}

/** What `/model` uses: the idle timeout of the provider in use now, a switch to another model, the completions. */
function modelSwitching(
	conversation: Conversation,
	run: RunSettings,
	reaches: Reaches,
	override: SetupOptions["override"],
): Pick<Setup, "idleTimeoutMs" | "providerFor" | "modelChoices" | "modelRows" | "listModels"> {
	// The provider in use now (a `/model` switch may have changed it).
	const currentProvider = (): ProviderName => {
		const name = conversation.model.provider;
		return isProviderName(name) ? name : run.provider;
	};
	// What the OpenAI-compatible servers listed (null: they could not be asked), and all their ids.
	const listed: Partial<Record<ProviderName, ListedModel[] | null>> = {};
	const listedIds = new Set<string>();
	const current = () => ({ provider: currentProvider(), model: conversation.model.model });
	const reachOf = { anthropic: reaches.anthropic.reach, openai: reaches.openai.reach };
	return {
		idleTimeoutMs: () => reaches[currentProvider()].settings?.idleTimeoutMs ?? run.idleTimeoutMs,
		async providerFor(spec: string): Promise<ModelSwitch> {
			if (override) return { error: "this conversation's model is scripted and cannot be switched" };
			const from = currentProvider();
			const target = parseModelSpec(spec.trim(), from);
			const { reach, settings } = reaches[target.provider];
			const error = refuseSwitch(target, reach, reaches[from].reach);
			if (error || !settings) return { error: error ?? `${target.provider} is not set up` };
			const next = await createProvider(target.provider, providerOptions(settings));
			const contextWindow =
				settings.contextWindow ??
				findModel(target.model)?.contextWindow ??
				(await serverWindow(settings, target.model, true)) ??
				null;
			const prices = settings.prices ? { prices: settings.prices } : {};
			return {
				provider: next,
				model: target.model,
				contextWindow,
				// A window the server told is known, too.
				note: unknownModelNote(target.model, contextWindow === null ? reach : { ...reach, contextWindow }, listedIds),
				...prices,
			};
		},
		modelChoices: () => modelChoices(current(), reachOf),
		modelRows: () => modelRows(current(), reachOf, listed),
		async listModels() {
			const failed: string[] = [];
			for (const { reach, settings } of Object.values(reaches)) {
				if (!settings?.baseUrl || !servesAnyId(reach) || listed[reach.name]) continue;
				const got = await listServerModels(settings.baseUrl, settings.apiKey ? { apiKey: settings.apiKey } : {});
				listed[reach.name] = "models" in got ? got.models : null;
				if ("error" in got) failed.push(`${reach.name} (${got.error})`);
				else for (const model of got.models) listedIds.add(model.id);
			}
			return failed.length > 0 ? `could not list the models of ${failed.join(", ")}: showing gar's table` : null;
		},
	};
}
