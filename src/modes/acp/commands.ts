// The slash commands an editor offers for gar (available_commands_update): /compact, /context, /model.

import { contextReport, liveContextInput } from "../../inspect/context-report.js";
import { contextLines } from "../../view/context-view.js";
import { formatTokens } from "../../view/format.js";
import type { Setup } from "../setup.js";

/** What a command answered (as an agent message), and whether it was stopped (`cancelled`). */
export type CommandReply = { reply: string; cancelled?: boolean };

/** Runs `text` when it is one of the commands (`/compact [focus]`, `/context`, `/model [NAME]`); undefined otherwise. */
export async function runCommand(text: string, setup: Setup): Promise<CommandReply | undefined> {
	const match = /^\/(compact|context|model)(?:\s+([\s\S]*))?$/.exec(text.trim());
	if (!match) return undefined;
	const arg = (match[2] ?? "").trim();
	const { conversation } = setup;
	switch (match[1]) {
		case "compact": {
			const result = await conversation.compact(arg || undefined);
			if (result.aborted) return { reply: "Compaction stopped; the context is as it was.", cancelled: true };
			if (!result.ok) return { reply: `The context was not compacted: ${result.error ?? "it failed"}.` };
			return {
				reply: `Compacted the context: ${formatTokens(result.tokensBefore)} → ${formatTokens(result.tokensAfter)} tokens.`,
			};
		}
		case "context": {
			const { tokens, window } = conversation.context;
			const { provider, model } = conversation.model;
			const share = window ? ` of ${formatTokens(window)} (${Math.round((tokens / window) * 100)}%)` : "";
			// What fills it, as gar context and the app's /context show it (a code block: the columns line up).
			const breakdown = contextLines(contextReport(liveContextInput(conversation))).join("\n");
			return {
				reply: `The next request is about ${formatTokens(tokens)} tokens${share} · ${provider}/${model}.\n\n\`\`\`\n${breakdown}\n\`\`\``,
			};
		}
		default: {
			if (!arg) {
				const { provider, model } = conversation.model;
				const choices = setup.modelChoices().slice(0, 20).join(", ");
				return { reply: `The model is ${provider}/${model}. /model NAME switches; choices: ${choices}.` };
			}
			const next = await setup.providerFor(arg);
			if ("error" in next) return { reply: next.error };
			conversation.setModel(next.provider, next.model, next.contextWindow, next.prices);
			return {
				reply: `Model: ${next.provider.name}/${next.model} from the next message on.${next.note ? `\n${next.note}` : ""}`,
			};
		}
	}
}
