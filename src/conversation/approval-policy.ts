import type { ApprovalDecision, ApprovalRequest, RuleCheck } from "../agent/loop.js";
import { describeRule, type PermissionRule, prefixWords, ruleSource, ruleToml } from "../config/permissions.js";
import { reviewCall } from "../config/rule-match.js";

/** Saves an allow rule to the user's config file; returns where it was written, or throws with words to show. */
export type SaveRule = (rule: Pick<PermissionRule, "list" | "tool" | "prefix">) => { file: string; line: number };

export type PolicyOptions = {
	/** Whether mutating calls ask (`--approve`, `agent.approve`; ACP's session modes change it). */
	required: boolean;
	/** Tools that never ask (`agent.auto_approve`). */
	autoApprove: readonly string[];
	/** The permission rules in force (config/load.ts). */
	rules?: readonly PermissionRule[];
	/** Saves a rule the person chose at the question; absent: such rules last for this session only. */
	saveRule?: SaveRule;
	/** The home folder, so rules name their files as `~/…`. */
	home?: string;
	/** Tells the person (a notice event). */
	notice: (level: "info" | "warning", message: string) => void;
};

/**
 * The approval policy of one conversation: which calls ask (approval on, not auto-approved, not allowed for the
 * session), and what the permission rules say of a call (deny wins; allow rules answer any question, the policy's
 * and a hook's). When the person allows "commands starting with …", the rule is saved and applies at once.
 */
export class ApprovalPolicy {
	required: boolean;
	private readonly allowed = new Set<string>();
	private readonly rules: PermissionRule[];
	private readonly home: string;

	constructor(private readonly o: PolicyOptions) {
		this.required = o.required;
		this.rules = [...(o.rules ?? [])];
		this.home = o.home ?? "";
	}

	/** Tools the person allowed for the rest of this session. */
	get allowedTools(): ReadonlySet<string> {
		return this.allowed;
	}

	/** Whether a mutating call of `tool` asks, rules aside. */
	needed(tool: string): boolean {
		return this.required && !this.o.autoApprove.includes(tool) && !this.allowed.has(tool);
	}

	/** Lets `tool` run without asking for the rest of this session. */
	allowForSession(tool: string): void {
		this.allowed.add(tool);
	}

	/** A new session: tools allowed for the old one ask again (lasting rules stay). */
	forgetSession(): void {
		this.allowed.clear();
	}

	/** What the rules say of a call, in words for the model, the dialog and the chat. */
	check(call: { name: string; args: Record<string, unknown> }): RuleCheck {
		const review = reviewCall(this.rules, call.name, call.args);
		const said = (rule: PermissionRule) => describeRule(rule, this.home);
		switch (review.verdict) {
			case "deny": {
				const part = review.part === undefined ? "" : ` (it matches \`${review.part}\`)`;
				const reason = `This ${call.name} call is denied by the rule ${said(review.rule)}${part}: a deny rule wins over every allow. Do not retry it in another form.`;
				return { kind: "deny", reason };
			}
			case "allow":
				return { kind: "allow", rule: review.rules.map(said).join(", ") };
			case "none": {
				const notes = review.matched.map(({ part, rule }) => `\`${part}\` is allowed by ${said(rule)}`);
				if (review.why) notes.push(review.why);
				return {
					kind: "none",
					...(review.mustAsk ? { mustAsk: true } : {}),
					...(review.offer && review.offer.length > 0 ? { prefixes: review.offer } : {}),
					...(notes.length > 0 ? { note: notes.join("; ") } : {}),
				};
			}
		}
	}

	/** The person's answer: a tool allowed for the session, or rules for the prefixes they allowed, saved. */
	answered(request: ApprovalRequest, decision: ApprovalDecision): void {
		if (!decision.approved) return;
		if (decision.remember) this.allowed.add(request.name);
		for (const prefix of decision.prefixes ?? []) this.addRule(request.name, prefix);
	}

	private addRule(tool: string, prefix: string): void {
		const words = prefixWords(prefix, "allow");
		if ("problem" in words) {
			this.o.notice("warning", `no rule was saved for ${JSON.stringify(prefix)}: ${words.problem}`);
			return;
		}
		const rule: PermissionRule = { list: "allow", tool, prefix, words: words.words };
		const table = `[[permissions.allow]] ${ruleToml(rule)}`;
		if (!this.o.saveRule) {
			this.rules.push(rule);
			this.o.notice("info", `allowed ${table} for this session (no config file to save it to)`);
			return;
		}
		try {
			const saved: PermissionRule = { ...rule, ...this.o.saveRule(rule) };
			this.rules.push(saved);
			this.o.notice("info", `saved ${table} to ${ruleSource(saved, this.home)}`);
		} catch (error) {
			this.rules.push(rule);
			const why = error instanceof Error ? error.message : String(error);
			this.o.notice("warning", `could not save ${table}: ${why}\nit applies for the rest of this session`);
		}
	}
}

/** The decision, or a denial as soon as `signal` aborts (an approval question must never hold up an abort). */
export function untilAborted(decision: Promise<ApprovalDecision>, signal: AbortSignal): Promise<ApprovalDecision> {
	if (signal.aborted) return Promise.resolve({ approved: false, reason: "aborted" });
	return new Promise((resolve, reject) => {
		const onAbort = () => resolve({ approved: false, reason: "aborted" });
		signal.addEventListener("abort", onAbort, { once: true });
		decision.then(
			(value) => {
				signal.removeEventListener("abort", onAbort);
				resolve(value);
			},
			(error: unknown) => {
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}
