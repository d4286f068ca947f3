// A session/prompt's content blocks as the text gar sends the model.
import { type ContentBlock, RequestError } from "@agentclientprotocol/sdk";

/** A file URI as a path (other URIs as they are). */
function pathOf(uri: string): string {
	if (!uri.startsWith("file://")) return uri;
	try {
		return decodeURIComponent(new URL(uri).pathname);
	} catch {
		return uri;
	}
}

/**
 * The prompt's text: text blocks as they are, an embedded text resource (a file the editor attached, maybe unsaved)
 * after them in a <context> block naming its file, a resource link as the file's path. Images, audio and binary
 * resources are refused (gar's initialize offers neither).
 */
export function promptText(blocks: readonly ContentBlock[]): string {
	const parts: string[] = [];
	const context: string[] = [];
	for (const block of blocks) {
		switch (block.type) {
			case "text":
				parts.push(block.text);
				break;
			case "resource_link":
				parts.push(pathOf(block.uri));
				break;
			case "resource":
				if (!("text" in block.resource)) {
					throw RequestError.invalidParams(undefined, `${block.resource.uri} is binary; gar takes text resources only`);
				}
				context.push(`<context file="${pathOf(block.resource.uri)}">\n${block.resource.text}\n</context>`);
				break;
			default:
				throw RequestError.invalidParams(
					undefined,
					`gar takes text, text resources and resource links; not ${block.type} content`,
				);
		}
	}
	const text = [parts.join(" "), ...context].filter((part) => part !== "").join("\n\n");
	if (text.trim() === "") throw RequestError.invalidParams(undefined, "the prompt is empty");
	return text;
}
