import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runGar, tempHome } from "./support/cli.js";

/** A project whose `.gar/config.toml` tries to auto-approve bash, in a fresh home. */
function world() {
	const home = tempHome();
	mkdirSync(join(home.project, ".git"));
	mkdirSync(join(home.project, ".gar"));
	writeFileSync(join(home.project, ".gar", "config.toml"), '[agent]\nauto_approve = ["bash"]\n');
	return home;
}

describe("gar trust", () => {
	it("ignores an untrusted project's auto_approve with a notice, applies it once trusted, untrust undoes it", async () => {
		const { project, env, root } = world();
		const before = await runGar(["config"], { env, cwd: project });
		expect(before.code).toBe(0);
		expect(before.stderr).toBe(
			// HOME is the temp root, so paths show as ~/project.
			'gar: warning: ignored agent.auto_approve from ~/project/.gar/config.toml: the project is not trusted (run "gar trust ~/project" to apply them)\n',
		);
		expect(before.stdout).toContain("agent.auto_approve = []  (default)");
		expect(before.stdout).toContain(
			'agent.auto_approve = ["bash"]  (ignored, project not trusted: ~/project/.gar/config.toml:2',
		);

		const trusted = await runGar(["trust"], { env, cwd: project });
		expect(trusted).toMatchObject({ code: 0, stderr: "" });
		expect(trusted.stdout).toContain(`trusted ${project}:`);
		const file = JSON.parse(readFileSync(join(root, "config", "gar", "trusted.json"), "utf8"));
		expect(file.projects.map((p: { path: string }) => p.path)).toEqual([project]);

		const after = await runGar(["config", "--json"], { env, cwd: project });
		expect(after.stderr).toBe("");
		expect(JSON.parse(after.stdout).values["agent.auto_approve"].value).toEqual(["bash"]);

		const again = await runGar(["trust", project], { env, cwd: root });
		expect(again.stdout).toBe(`already trusted: ${project}\n`);

		const list = await runGar(["trust", "--list"], { env, cwd: root });
		expect(list.stdout).toMatch(new RegExp(`^${project}  \\(since \\d{4}-\\d\\d-\\d\\dT`));

		const untrusted = await runGar(["untrust"], { env, cwd: join(project, ".gar") });
		expect(untrusted).toMatchObject({ code: 0, stdout: `no longer trusted: ${project}\n` });
		expect((await runGar(["config"], { env, cwd: project })).stderr).toContain("ignored agent.auto_approve");
		expect((await runGar(["trust", "--list"], { env, cwd: root })).stdout).toBe("no trusted projects\n");
	});

	it("refuses a directory that does not exist (exit 2)", async () => {
		const { env, root } = world();
		const run = await runGar(["trust", "nope"], { env, cwd: root });
		expect(run.code).toBe(2);
		expect(run.stderr).toBe(`gar: trust: ${join(root, "nope")} is not a directory\n`);
	});

	it("takes --cwd like the other subcommands", async () => {
		const { project, env, root } = world();
		const run = await runGar(["trust", "--cwd", project], { env, cwd: root });
		expect(run.stdout).toContain(`trusted ${project}:`);
	});
});

describe("gar trust and gar untrust run at the same time", () => {
	const listed = (root: string) =>
		(JSON.parse(readFileSync(join(root, "config", "gar", "trusted.json"), "utf8")).projects as { path: string }[])
			.map((p) => p.path)
			.sort();

	it("lose no change: 10 projects trusted in parallel, then 10 untrusted in parallel", async () => {
		const { env, root } = world();
		const projects = Array.from({ length: 10 }, (_, i) => join(root, `p${i}`));
		for (const project of projects) mkdirSync(project);
		const trusted = await Promise.all(projects.map((project) => runGar(["trust", project], { env, cwd: root })));
		expect(trusted.map((run) => run.code)).toEqual(projects.map(() => 0));
		expect(listed(root)).toEqual([...projects].sort());
		const untrusted = await Promise.all(projects.map((project) => runGar(["untrust", project], { env, cwd: root })));
		expect(untrusted.map((run) => run.stdout)).toEqual(projects.map((project) => `no longer trusted: ${project}\n`));
		expect(listed(root)).toEqual([]);
	}, 60_000);

	it("record one project once when it is trusted 10 times at once, and keep the others while it is untrusted", async () => {
		const { env, root, project } = world();
		const others = Array.from({ length: 5 }, (_, i) => join(root, `q${i}`));
		for (const other of others) mkdirSync(other);
		const runs = await Promise.all(Array.from({ length: 10 }, () => runGar(["trust", project], { env, cwd: root })));
		expect(runs.filter((run) => run.stdout.startsWith("trusted ")).length).toBe(1);
		expect(runs.filter((run) => run.stdout.startsWith("already trusted")).length).toBe(9);
		expect(listed(root)).toEqual([project]);
		const mixed = await Promise.all([
			...others.map((other) => runGar(["trust", other], { env, cwd: root })),
			...Array.from({ length: 5 }, () => runGar(["untrust", project], { env, cwd: root })),
		]);
		expect(mixed.map((run) => run.code)).toEqual(mixed.map(() => 0));
		expect(listed(root)).toEqual([...others].sort());
	}, 60_000);
});

describe("gar --idle-timeout", () => {
	it("sets agent.idle_timeout, shown by gar config with its source", async () => {
		const { project, env } = world();
		const run = await runGar(["--idle-timeout", "2.5", "config"], { env, cwd: project });
		expect(run.stdout).toContain("agent.idle_timeout = 2.5  (flag --idle-timeout)");
		const bad = await runGar(["--idle-timeout", "0", "config"], { env, cwd: project });
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain("--idle-timeout");
	});
});

describe("error lines", () => {
	it("show terminal controls from a config file visibly", async () => {
		const { project, env } = world();
		writeFileSync(join(project, ".gar", "config.toml"), 'model = "m"\n[agent]\nmax_turns = "\\u001b]0;pwned\\u0007"\n');
		const run = await runGar(["config"], { env, cwd: project });
		expect(run.code).toBe(2);
		expect(run.stderr).not.toContain("\x1b");
		expect(run.stderr).not.toContain("\x07");
	});
});
