// The floor of a streamed reply, whole process: `node bench-wire-client.cjs URL PATH` POSTs once, reads the body,
// splits it into events and JSON.parses each event's data (what any client pays), and exits. Plain CommonJS so the
// process costs what `node` costs, nothing more (bench-wire.ts times it against `gar -p` on the same server).
"use strict";
const http = require("node:http");

const [url, path] = process.argv.slice(2);
const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "go" }], stream: true });
const req = http.request(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" } });
req.on("response", (res) => {
	let rest = "";
	let text = "";
	res.setEncoding("utf8");
	res.on("data", (chunk) => {
		const parts = (rest + chunk).split("\n\n");
		rest = parts.pop() ?? "";
		for (const part of parts) {
			const data = part.slice(part.indexOf("data: ") + 6);
			if (data === "[DONE]") continue;
			const event = JSON.parse(data);
			text += event.delta?.text ?? event.choices?.[0]?.delta?.content ?? "";
		}
	});
	res.on("end", () => process.stdout.write(`${text}\n`));
});
req.on("error", (error) => {
	process.stderr.write(`${error}\n`);
	process.exitCode = 1;
});
req.end(body);
