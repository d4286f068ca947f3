// gar's approval question as ACP's session/request_permission, and the answer back as gar's decision.
import type {
	PermissionOption,
	RequestPermissionOutcome,
	ToolCallContent,
	ToolCallUpdate,
} from "@agentclientprotocol/sdk";
import type { ApprovalDecision, ApprovalRequest } from "../../agent/loop.js";
import { prefixLabel } from "../../view/format.js";
import { callView, diffContent, fenced } from "./updates.js";

/**
 * The answers: allow or reject, this call or every call of the tool for the rest of the session; and, where the
 * rules offer it, allow commands starting with the prefixes shown (saved as rules in the user config).
 */
export function permissionOptions(tool: string, prefixes?: readonly string[]): PermissionOption[] {
	const prefix: PermissionOption[] = prefixes?.length
		? [
				{
					optionId: "allow_prefix",
					name: `Always allow commands starting with ${prefixLabel(prefixes)}`,
					kind: "allow_always",
				},
			]
		: [];
	return [
		{ optionId: "allow_once", name: "Allow", kind: "allow_once" },
		{ optionId: "allow_always", name: `Allow ${tool} for this session`, kind: "allow_always" },
		...prefix,
		{ optionId: "reject_once", name: "Reject", kind: "reject_once" },
		{ optionId: "reject_always", name: `Reject ${tool} for this session`, kind: "reject_always" },
	];
}

/**
 * The call a permission request shows: its title, kind and files, and what it will do (the diff or the command).
 * `toolCallId`: the call's id as the session's updates named it.
 */
export function permissionRequest(request: ApprovalRequest, cwd: string, toolCallId = request.callId): ToolCallUpdate {
	const view = callView(request.name, request.args, cwd);
	const { preview } = request;
	let content: ToolCallContent[];
	if (preview.kind === "write" || preview.kind === "edit") {
		content = diffContent(preview.path, preview.diff, preview.kind === "write" && preview.action === "create");
	} else if (preview.kind === "bash") {
		content = [{ type: "content", content: { type: "text", text: fenced(preview.command) } }];
	} else if (preview.kind === "read") {
		content = [{ type: "content", content: { type: "text", text: `Read ${preview.path}` } }];
	} else {
		content = [{ type: "content", content: { type: "text", text: `This call will fail: ${preview.message}` } }];
	}
	// A PreToolUse hook asked: the client shows why (README "Hooks").
	if (request.reason) content = [{ type: "content", content: { type: "text", text: request.reason } }, ...content];
	return {
		toolCallId,
		title: view.title,
		kind: view.kind,
		status: "pending",
		locations: view.locations,
		rawInput: request.args,
		content,
	};
}

/**
 * The person's answer as gar's decision; `rejectAlways`: refuse this tool without asking from now on. `prefixes`:
 * the ones the request offered (the client picks an option; the prefixes are never the client's).
 */
export function decisionOf(
	outcome: RequestPermissionOutcome,
	tool: string,
	prefixes?: readonly string[],
): { decision: ApprovalDecision; rejectAlways: boolean } {
	if (outcome.outcome === "cancelled") {
		return { decision: { approved: false, reason: "the prompt was cancelled", stop: true }, rejectAlways: false };
	}
	switch (outcome.optionId) {
		case "allow_once":
			return { decision: { approved: true }, rejectAlways: false };
		case "allow_always":
			return { decision: { approved: true, remember: true }, rejectAlways: false };
		case "allow_prefix":
			if (!prefixes?.length) return { decision: { approved: false, reason: "the user said no" }, rejectAlways: false };
			return { decision: { approved: true, prefixes: [...prefixes] }, rejectAlways: false };
		case "reject_always":
			return {
				decision: { approved: false, reason: `the user rejected ${tool} calls for the rest of this session` },
				rejectAlways: true,
			};
		default:
			return { decision: { approved: false, reason: "the user said no" }, rejectAlways: false };
	}
}
