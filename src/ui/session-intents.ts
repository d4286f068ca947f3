import { ConversationBusyError } from "../conversation/conversation.js";
import type { Setup } from "../modes/setup.js";
import { forkSession, resolveEntry, SessionWriter } from "../session/index.js";
import { pathView } from "./path-view.js";
import { rewindIntents } from "./rewind-intents.js";
import type { SessionIntents } from "./screens/screen.js";
import type { InputModel } from "./state/input-model.js";
import type { UiStore } from "./state/store.js";

export type IntentDeps = {
	setup: Pick<Setup, "conversation" | "channel" | "secrets"> & { config: { session: { dir: string } } };
	store: UiStore;
	input: InputModel;
	/** After the leaf or the session changed (the inspector's "branch 2 of 3" follows). */
	onMoved?: () => void;
};

const NOT_SAVED = "this conversation is not saved (--no-session), so it has no session tree";
const NOT_SAVED_REWIND = "this conversation is not saved (--no-session), so there is nothing to rewind or redo";

/** The session intents of the app (screens/screen.ts SessionIntents) over the conversation. */
export function sessionIntents({ setup, store, input, onMoved }: IntentDeps): SessionIntents {
	const { conversation, channel } = setup;
	const say = (message: string, level: "info" | "warning" = "info") => channel.emit({ type: "notice", level, message });
	const notice = (message: string) => say(message);
	const writer = () => {
		const saved = conversation.session;
		if (!saved) throw new Error(NOT_SAVED);
		return saved;
	};
	/** The chat shows the new path, from its bottom. */
	const redraw = () => {
		store.view = pathView(conversation);
		store.toBottom();
		onMoved?.();
		store.changed();
	};
	const moveLeaf = (entryId: string | null) => {
		if (conversation.running) throw new ConversationBusyError("move to another entry");
		conversation.branch(entryId);
		redraw();
	};
	return {
		...rewindIntents({ conversation, store, input, notice: say, redraw, notSaved: NOT_SAVED_REWIND }),
		session: () => conversation.session?.session ?? null,
		openTree: () => {
			const saved = conversation.session;
			if (!saved) return NOT_SAVED;
			if (saved.session.roots().length === 0) return "the session tree is empty: send a message first";
			store.openScreen("tree");
			return null;
		},
		moveLeaf: (entryId) => {
			moveLeaf(entryId);
			notice("moved to an earlier entry: the next message continues from here (/tree shows every branch)");
		},
		editPrompt: (entryId) => {
			const node = writer().session.node(entryId);
			if (node?.type !== "user") throw new Error("only a prompt you sent can be edited and resent");
			// A !cmd's output and a schema retry are gar's words, not the person's.
			if (node.source === "shell" || node.source === "schema_retry") {
				throw new Error("this is not a prompt you typed (a !command's output or a retry): e edits your prompts");
			}
			moveLeaf(node.parentId);
			input.restore(node.content);
			notice("editing an earlier prompt: sending it starts a new branch; the old one stays in /tree");
		},
		label: (entryId, text) => {
			writer().label(entryId, text);
			store.changed();
		},
		fork: (entryId) => {
			if (conversation.running) throw new ConversationBusyError("fork the session");
			const source = writer();
			const at = entryId === undefined ? source.leafId : resolveEntry(source.session, entryId);
			if (at === null) throw new Error("nothing to fork yet: send a message first");
			const from = source.session.header.id;
			const file = forkSession(source.file, at, { dir: setup.config.session.dir });
			const copy = SessionWriter.open(file, { secrets: setup.secrets });
			// With session hooks the switch waits for them; the copy is made and checked already.
			return conversation.switchSession(copy).then(() => {
				redraw();
				const id = copy.session.header.id;
				notice(
					`this is a new session, ${id}: a copy of ${from} up to ${at} (that one is unchanged: gar --session ${from})`,
				);
			});
		},
	};
}
