import { saveCodeCache } from "../code-cache.js";
import { createDemoProject, DEMO_PROMPT, demoScript } from "../demo/project.js";
import { createScriptedProvider } from "../llm/scripted.js";
import { type RunFlags, type Setup, setupRun } from "../modes/setup.js";
import { loadSessionSliced } from "../session/index.js";
import { nextTurn } from "../text/steps.js";
import { loadMarkdown } from "./chat/markdown.js";
import { pathViewSliced } from "./path-view.js";
import { endPreview, showPreview } from "./resume-preview.js";
import type { SessionIntents } from "./screens/screen.js";
import { type IntentDeps, sessionIntents } from "./session-intents.js";
import type { StartedApp } from "./start.js";
import { configuredTheme } from "./theme/start.js";

/**
 * The app's second stage, loaded after its first frame: config, session, tools and the provider (with its SDK)
 * become a Conversation whose events feed the store. Kept out of run.tsx so none of it delays the first frame.
 */
export type Connected = {
	setup: Setup;
	cwd: string;
	prompt: string | undefined;
	demo: boolean;
	/** The session intents over this conversation (made here: session-intents.ts loads session/'s code). */
	intents: (deps: Omit<IntentDeps, "setup">) => SessionIntents;
};

/**
 * Builds the conversation and subscribes the store; warnings and first-contact help become notices. A session
 * continued (--session, -c, gar -r) shows its last screen from the file's tail before the whole file is read, unless
 * --at names another entry (resume-preview.ts).
 */
export async function connect(
	options: RunFlags & { prompt?: string; demo?: boolean; theme?: string },
	{ store, preview }: Pick<StartedApp, "store" | "preview">,
): Promise<Connected> {
	const demo = options.demo ? demoSetup() : undefined;
	const flags = demo ? { ...options, cwd: demo.cwd, noSession: true, prompt: DEMO_PROMPT } : options;
	// The session's last screen first; then the whole file, read in slices so that keys are answered meanwhile.
	const beforeSessionLoad = async (file: string) => {
		await showPreview(file, { store, cwd: flags.cwd, show: preview });
		return loadSessionSliced(file, nextTurn);
	};
	const setup = await setupRun(flags, process.env, {
		// The person answers through the store; the question itself is the view's (approval_request).
		ask: store.ask,
		allowMissingKey: true,
		// The session file appears with the first entry: opening the app and quitting leaves nothing behind.
		lazySession: true,
		...(demo ? { override: demo.override } : {}),
		...(flags.at ? {} : { beforeSessionLoad }),
	});
	// Replies are drawn as markdown: marked and lowlight are loaded before the first one is shown (after a resumed
	// session's last screen, which needs marked alone: everything here runs on one thread, so nothing waits longer).
	await loadMarkdown();
	const { channel } = setup;
	store.view = await pathViewSliced(setup.conversation, nextTurn);
	endPreview(store);
	// A continued session without a preview: its code cache is written now (once per launch: a no-op after one).
	saveCodeCache();
	channel.subscribe(store.onEvent);
	store.inspector = setup.config.tui.inspector;
	store.idleTimeoutMs = setup.idleTimeoutMs;
	const themed = await configuredTheme(options.theme, setup.config.tui.theme, process.env);
	if (themed) store.setTheme(themed.theme);
	if (themed?.warning) channel.emit({ type: "notice", level: "warning", message: themed.warning });
	for (const warning of setup.warnings) channel.emit({ type: "notice", level: "warning", message: warning });
	if (setup.missingKey)
		channel.emit({ type: "notice", level: "warning", message: firstContact(setup.missingKey, setup.provider) });
	store.changed();
	// The SessionStart hooks run now, not at the first prompt (their lines show in the chat).
	void setup.conversation.start();
	const intents = (deps: Omit<IntentDeps, "setup">) => sessionIntents({ setup, ...deps });
	return { setup, cwd: flags.cwd, prompt: flags.prompt, demo: !!demo, intents };
}

/** The demo's project and scripted model. */
function demoSetup() {
	const cwd = createDemoProject();
	const script = demoScript();
	const after = {
		text: "This is the scripted demo; it has nothing more to say. Start gar with an API key (or --base-url) to work for real.",
	};
	const provider = createScriptedProvider((_request, call) => script[call] ?? after);
	return { cwd, override: { provider, model: "demo (scripted)" } };
}

/**
 * What the first screen says when no key is set for `provider`: `missing` (the config's "no API key for …: set …"
 * message) as the first sentence, then the other provider's key and a local server, which need no change of key.
 * One sentence a line: a notice breaks its lines where they are, so a sentence split over two would read as two.
 */
export function firstContact(missing: string, provider: string): string {
	const other =
		provider === "openai"
			? "For Claude, set ANTHROPIC_API_KEY and start gar with --provider anthropic"
			: "For OpenAI, set OPENAI_API_KEY and start gar with --provider openai";
	const local = `gar --provider openai --base-url http://localhost:11434/v1 --model qwen3`;
	return [
		`Welcome to gar. ${missing.charAt(0).toUpperCase()}${missing.slice(1)}, then start gar again.`,
		`${other}; a local OpenAI-compatible server such as Ollama needs no key: ${local}`,
		"Try `gar demo` to watch a scripted session without a key.",
	].join("\n");
}
