import type { Conversation } from "../conversation/conversation.js";
import { replayEvents, type Session } from "../session/index.js";
import { runSteps, runStepsSliced } from "../text/steps.js";
import { reduce } from "../view/reducer.js";
import { initialView, type ViewState } from "../view/state.js";

/** The chat of the conversation's current path: its entries folded through the reducer, at the recorded times. */
export function pathView(conversation: Conversation): ViewState {
	const writer = conversation.session;
	const start = pathStart(conversation);
	return withModel(writer ? replayedView(writer.session, start) : start, conversation);
}

/** pathView with the event loop let run (`pause` awaited) every few milliseconds: a long session, keys answered. */
export async function pathViewSliced(conversation: Conversation, pause: () => Promise<void>): Promise<ViewState> {
	const writer = conversation.session;
	const start = pathStart(conversation);
	return withModel(writer ? await replayedViewSliced(writer.session, start, pause) : start, conversation);
}

const pathStart = (conversation: Conversation) => initialView({ ...conversation.model, priced: conversation.priced });

/** `view` as the conversation's model sees it: its provider, model and context window. */
function withModel(view: ViewState, conversation: Conversation): ViewState {
	view.provider = conversation.model.provider;
	view.model = conversation.model.model;
	view.context = { ...view.context, window: conversation.model.contextWindow };
	return view;
}

/** `start` with the path of `session` to its leaf folded in through the reducer, at the recorded times; idle. */
export function replayedView(session: Session, start: ViewState): ViewState {
	return runSteps(replaySteps(session, start));
}

/** replayedView with the event loop let run (`pause` awaited) every few milliseconds: keys are answered meanwhile. */
export async function replayedViewSliced(
	session: Session,
	start: ViewState,
	pause: () => Promise<void>,
): Promise<ViewState> {
	return runStepsSliced(replaySteps(session, start), pause);
}

/** The replay of `session` into `start`, a step per event. */
function* replaySteps(session: Session, start: ViewState): Generator<void, ViewState> {
	let view = start;
	if (session.leafId !== null) {
		for (const { event, ts } of replayEvents(session)) {
			view = reduce(view, event, Date.parse(ts) || 0);
			yield;
		}
	}
	view.activity = { kind: "idle" };
	return view;
}
