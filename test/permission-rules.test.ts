// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell commands, not templates
// Permission rules (README "Permission rules"): how a command splits into parts, which commands a rule allows or
// denies, and what the dialog offers. The table of commands that must not match is the safety feature.
import { describe, expect, it } from "vitest";
import { type PermissionRule, prefixWords } from "../src/config/permissions.js";
import { reviewCall, suggestPrefix } from "../src/config/rule-match.js";
import { splitCommand } from "../src/text/shell-split.js";

function rule(list: "allow" | "deny", prefix?: string, tool = "bash"): PermissionRule {
	if (prefix === undefined) return { list, tool, file: "/home/u/.config/gar/config.toml", line: 1 };
	const words = prefixWords(prefix, list);
	if ("problem" in words) throw new Error(words.problem);
	return { list, tool, prefix, words: words.words, file: "/home/u/.config/gar/config.toml", line: 1 };
}

const verdict = (rules: PermissionRule[], command: string) => reviewCall(rules, "bash", { command }).verdict;

/** The words of each part, `~` marking a word that expands. */
function parts(command: string): string[][] | string {
	const split = splitCommand(command);
	if (!split.ok) return `unsure: ${split.reason}`;
	return split.parts.map((part) => [
		...part.words.map((w) => (w.literal ? w.text : `~${w.text}`)),
		...part.writes.map((w) => `>${w}`),
	]);
}

describe("splitting a command into its parts", () => {
	it("splits at &&, ||, ;, &, |, |& and new lines, and removes quotes", () => {
		expect(parts("npm test && npm run lint")).toEqual([
			["npm", "test"],
			["npm", "run", "lint"],
		]);
		expect(parts("a || b; c & d | e |& f\ng")).toEqual([["a"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g"]]);
		expect(parts(`git commit -m "fix: a; b && c"`)).toEqual([["git", "commit", "-m", "fix: a; b && c"]]);
		expect(parts(`echo 'it''s' "x\\"y" a\\ b`)).toEqual([["echo", "its", 'x"y', "a b"]]);
		expect(parts("npm \\\n  test")).toEqual([["npm", "test"]]);
		expect(parts("a &&\n b")).toEqual([["a"], ["b"]]);
	});

	it("takes the commands inside substitutions and subshells as parts of their own", () => {
		expect(parts("echo $(rm -rf x)")).toEqual([
			["echo", "~"],
			["rm", "-rf", "x"],
		]);
		expect(parts('echo "$(rm -rf x)"')).toEqual([
			["echo", "~"],
			["rm", "-rf", "x"],
		]);
		expect(parts("echo `rm -rf x`")).toEqual([
			["echo", "~"],
			["rm", "-rf", "x"],
		]);
		expect(parts("diff <(ls a) >(cat)")).toEqual([["diff", "~", "~"], ["ls", "a"], ["cat"]]);
		expect(parts("(cd x && make) && ls")).toEqual([["cd", "x"], ["make"], ["ls"]]);
		expect(parts("echo $(echo $(whoami))")).toEqual([["echo", "~"], ["echo", "~"], ["whoami"]]);
	});

	it("notes redirections that write files, and not /dev/null or another descriptor", () => {
		expect(parts("npm test > out.txt")).toEqual([["npm", "test", ">out.txt"]]);
		expect(parts("npm test 2>/dev/null >&2 2>&1 < in.txt")).toEqual([["npm", "test"]]);
		expect(parts("npm test &>> log")).toEqual([["npm", "test", ">log"]]);
		expect(parts("npm test >| log")).toEqual([["npm", "test", ">log"]]);
		expect(parts("npm test 1<> log")).toEqual([["npm", "test", ">log"]]);
		expect(parts("npm test >&log")).toEqual([["npm", "test", ">log"]]);
		expect(parts("(ls) > out")).toEqual([["ls"], [">out"]]);
		expect(parts("echo 2 >/dev/null")).toEqual([["echo", "2"]]);
	});

	it("marks words that expand: variables, globs, braces, ~", () => {
		expect(parts("rm $X *.js {a,b} ~/x a[1] ${HOME}")).toEqual([["rm", "~", "~*.js", "~{a,b}", "~~/x", "~a[1]", "~"]]);
		expect(parts("echo '$X' \"*\"")).toEqual([["echo", "$X", "*"]]);
	});

	it("refuses what it cannot be sure of", () => {
		for (const command of [
			`echo "unclosed`,
			"echo 'unclosed",
			"echo `unclosed",
			"echo $(unclosed",
			"echo x)",
			"cat <<EOF\nrm -rf x\nEOF",
			"cat <<-EOF\nx\nEOF",
			"echo hi # rm -rf x",
			"echo $((1 + $(rm -rf x)))",
			"((x++))",
			"echo $[1+1]",
			"echo ${x:-$(rm -rf x)}",
			"echo ${x@P}",
			"echo ${x:y}",
			"echo ${x/a/b}",
			"echo `echo \\`rm\\``",
			"if true; then rm -rf x; fi",
			"for f in *; do rm $f; done",
			"while true; do :; done",
			"case x in x) rm -rf y;; esac",
			"{ rm -rf x; }",
			"[[ -f x ]] && rm x",
			"! rm x",
			"time rm x",
			"function f { rm x; }",
			"f() { rm x; }",
			"a=(1 2)",
			"&& ls",
			"ls &&",
			"ls | ",
			"ls ;; ls",
			"ls > ",
			"ls\n&& rm x",
			"ls 0<&x",
			"echo \\",
		]) {
			expect(splitCommand(command), command).toMatchObject({ ok: false });
		}
	});
});

describe("the splitter's cost", () => {
	it("is linear: a 500 KB command of variables, quotes and parts splits in well under two seconds (quadratic work would take minutes)", () => {
		const command = Array.from({ length: 20_000 }, (_, i) => `echo "$a$b" '$c' x${i}`).join(" && ");
		const started = performance.now();
		const split = splitCommand(command);
		expect(split.ok && split.parts.length).toBe(20_000);
		expect(performance.now() - started).toBeLessThan(2000);
		expect(splitCommand("$".repeat(200_000)).ok).toBe(true);
	});
});

describe("what a rule allows", () => {
	const allow = [rule("allow", "npm test"), rule("allow", "git status")];

	it("allows a command whose every part starts with an allowed prefix, word for word", () => {
		for (const command of [
			"npm test",
			"npm test -- --watch",
			'npm "test"',
			"npm te\\st",
			"npm test && git status",
			"npm test | npm test",
			"npm test 2>&1",
			"npm test 2>/dev/null",
			"npm test < input.txt",
			"git status; npm test",
			"(npm test)",
			"npm test $(git status --short)",
		]) {
			expect(verdict(allow, command), command).toBe("allow");
		}
	});

	it("never allows a command with a part no rule covers (the table of commands that must not match)", () => {
		for (const command of [
			"npm test && rm -rf x",
			"npm test || rm -rf x",
			"npm test; rm -rf x",
			"npm test & rm -rf x",
			"npm test | sh",
			"npm test |& sh",
			"npm test\nrm -rf x",
			"npm test $(rm -rf x)",
			'npm test "$(rm -rf x)"',
			"npm test `rm -rf x`",
			'npm test "`rm -rf x`"',
			"npm test <(rm -rf x)",
			"npm test >(rm -rf x)",
			"(npm test; rm -rf x)",
			"npm test > ~/.bashrc",
			"npm test >> ~/.bashrc",
			"npm test &> out",
			"npm test >| out",
			"npm test 2> out",
			"npm test >&out",
			"npm testx",
			"npm tes",
			"npm",
			"npm  install",
			"npx npm test",
			"./npm test",
			"/tmp/npm test",
			"PATH=/tmp npm test",
			"LD_PRELOAD=x.so npm test",
			"$NPM test",
			"npm $T",
			"npm te*",
			"npm {test,publish}",
			"npm t?st",
			"npm ~",
			"eval npm test",
			"sudo npm test",
			"npm test\\\n; rm x",
			'npm test "unclosed',
			"npm test <<EOF\nx\nEOF",
			"npm test # && rm -rf x",
			"if npm test; then rm x; fi",
			"npm test ${x:-$(rm x)}",
			"npm test $((1+1))",
			"",
			"   ",
		]) {
			expect(verdict(allow, command), JSON.stringify(command)).not.toBe("allow");
		}
	});

	it("allows every call of a tool with no prefix, and a write or edit only by such a rule", () => {
		expect(verdict([rule("allow")], "rm -rf / && curl x | sh")).toBe("allow");
		expect(verdict([rule("allow")], 'echo "unclosed')).toBe("allow");
		expect(reviewCall([rule("allow", undefined, "write")], "write", { path: "x" }).verdict).toBe("allow");
		expect(reviewCall([rule("allow", "npm test")], "write", { path: "x" }).verdict).toBe("none");
	});
});

describe("what a deny rule denies", () => {
	it("wins over allow rules, in any part, after variables and by path", () => {
		const rules = [rule("allow"), rule("allow", "npm test"), rule("deny", "rm")];
		for (const command of [
			"rm -rf x",
			"npm test && rm -rf x",
			"npm test $(rm x)",
			"FOO=1 rm x",
			"/bin/rm x",
			'"rm" x',
			"r\\m x",
			"rm > /dev/null",
		]) {
			expect(reviewCall(rules, "bash", { command }), command).toMatchObject({ verdict: "deny" });
		}
		expect(reviewCall(rules, "bash", { command: "npm test && rm x" })).toMatchObject({ part: "rm x" });
		expect(verdict(rules, "rmdir x")).toBe("allow");
		expect(reviewCall([rule("allow", undefined, "edit"), rule("deny", undefined, "edit")], "edit", {}).verdict).toBe(
			"deny",
		);
	});

	it("a command gar cannot split is asked about when a deny rule might match it, even under an allow-all rule", () => {
		const review = reviewCall([rule("allow"), rule("deny", "rm")], "bash", { command: 'rm -rf x "' });
		expect(review).toMatchObject({ verdict: "none", mustAsk: true, offer: null });
		expect(reviewCall([rule("allow", "npm test")], "bash", { command: 'npm test "' })).toMatchObject({
			verdict: "none",
			mustAsk: false,
		});
	});
});

describe("the prefix the dialog offers", () => {
	const offer = (command: string) => {
		const review = reviewCall([rule("allow", "git status")], "bash", { command });
		return review.verdict === "none" ? (review.offer ?? review.why) : review.verdict;
	};

	it("is the command and the words after it that read as subcommands", () => {
		expect(offer("npm test -- --watch")).toEqual(["npm test"]);
		expect(offer("npm run build --prod")).toEqual(["npm run build"]);
		expect(offer("git commit -m 'x'")).toEqual(["git commit"]);
		expect(offer("cat README.md")).toEqual(["cat"]);
		expect(offer("pytest tests/")).toEqual(["pytest"]);
		expect(offer("make")).toEqual(["make"]);
		expect(offer("docker compose up -d")).toEqual(["docker compose up"]);
		expect(offer("./scripts/check.sh --fast")).toEqual(["./scripts/check.sh"]);
		expect(offer("'my tool' x")).toEqual(["'my tool' x"]);
		// The command alone where its arguments are data.
		expect(offer("grep x src")).toEqual(["grep"]);
		expect(offer("echo approved")).toEqual(["echo"]);
	});

	it("covers every part no rule allows yet, and says which parts a rule allows", () => {
		expect(offer("npm test | grep -v ok")).toEqual(["npm test", "grep"]);
		expect(offer("git status && npm test")).toEqual(["npm test"]);
		const review = reviewCall([rule("allow", "git status")], "bash", { command: "git status && npm test" });
		expect(review).toMatchObject({ matched: [{ part: "git status" }] });
	});

	it("is none for a part that writes a file, sets variables, runs other commands or cannot be split", () => {
		expect(offer("npm test > out.txt")).toBe("`npm test > out.txt` writes a file (> out.txt): no rule allows that");
		expect(offer("FOO=1 npm test")).toBe("`FOO=1 npm test` sets variables for its command: no rule allows that");
		expect(offer("sudo npm test")).toBe("sudo runs other commands: no rule is offered for it");
		expect(offer("bash -c 'npm test'")).toBe("bash runs other commands: no rule is offered for it");
		expect(offer("$X test")).toBe("the command's name in `$X test` is not plain text");
		expect(offer('npm test "')).toBe(
			"gar cannot split this command with certainty (a double quote is not closed), so no rule applies to it",
		);
	});

	it("reads back as the words it was made of", () => {
		const split = splitCommand("'my tool' sub arg");
		if (!split.ok || !split.parts[0]) throw new Error("split");
		const suggested = suggestPrefix(split.parts[0]);
		expect(suggested).toEqual({ prefix: "'my tool' sub" });
		expect(prefixWords("'my tool' sub", "allow")).toEqual({ words: ["my tool", "sub"] });
	});
});

describe("a rule's prefix", () => {
	it("is refused when empty, compound, redirected or not plain words", () => {
		expect(prefixWords("", "allow")).toEqual({
			problem:
				'an empty prefix would allow every command: write tool = "bash" without a prefix to allow every bash command',
		});
		expect(prefixWords("  ", "deny")).toMatchObject({ problem: expect.stringContaining("would deny every command") });
		for (const bad of ["npm test && x", "npm test > x", "npm $(x)", "npm *", "a; b", 'npm "']) {
			expect(prefixWords(bad, "allow"), bad).toHaveProperty("problem");
		}
		expect(prefixWords(`git  commit  "-m"`, "allow")).toEqual({ words: ["git", "commit", "-m"] });
	});
});
