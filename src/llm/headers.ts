/**
 * The WHATWG Headers class, for the provider SDKs. They build every request's headers with the global `Headers`,
 * and in Node 20 the first touch of that global loads undici (~20 ms and several MB of a `gar -p`), which gar's own
 * fetch (http-fetch.ts) exists to avoid. The build hands the SDKs this class in its place (scripts/build.mjs).
 * Same behaviour: names are case-insensitive and kept lowercase, iteration is sorted by name, values are trimmed of
 * HTTP whitespace, repeated values are joined with ", ", and invalid names or values are a TypeError.
 */
type HeadersInitLike =
	| Iterable<readonly [string, string]>
	| Record<string, string | readonly string[]>
	| { forEach(cb: (value: string, key: string) => void): void };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const INVALID_VALUE = /[\0\r\n]/;
const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

export class Headers {
	readonly #map = new Map<string, string>();
	readonly #cookies: string[] = [];

	constructor(init?: HeadersInitLike | null) {
		if (init === undefined || init === null) return;
		if (typeof (init as Iterable<unknown>)[Symbol.iterator] === "function") {
			for (const pair of init as Iterable<readonly [string, string]>) {
				if (pair.length !== 2) throw new TypeError("Headers: each header must be a [name, value] pair");
				this.append(pair[0], pair[1]);
			}
		} else if (typeof (init as { forEach?: unknown }).forEach === "function") {
			(init as { forEach(cb: (value: string, key: string) => void): void }).forEach((value, key) => {
				this.append(key, value);
			});
		} else {
			for (const [name, value] of Object.entries(init as Record<string, string | readonly string[]>)) {
				this.append(name, String(value));
			}
		}
	}

	append(name: string, value: string): void {
		const key = checkedName(name);
		const clean = checkedValue(value);
		if (key === "set-cookie") this.#cookies.push(clean);
		const had = this.#map.get(key);
		this.#map.set(key, had === undefined ? clean : `${had}, ${clean}`);
	}

	set(name: string, value: string): void {
		const key = checkedName(name);
		const clean = checkedValue(value);
		if (key === "set-cookie") this.#cookies.splice(0, this.#cookies.length, clean);
		this.#map.set(key, clean);
	}

	delete(name: string): void {
		const key = checkedName(name);
		if (key === "set-cookie") this.#cookies.length = 0;
		this.#map.delete(key);
	}

	get(name: string): string | null {
		return this.#map.get(checkedName(name)) ?? null;
	}

	has(name: string): boolean {
		return this.#map.has(checkedName(name));
	}

	getSetCookie(): string[] {
		return [...this.#cookies];
	}

	forEach(cb: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
		for (const [key, value] of this.entries()) cb.call(thisArg, value, key, this);
	}

	*entries(): IterableIterator<[string, string]> {
		for (const key of [...this.#map.keys()].sort()) {
			if (key === "set-cookie") for (const cookie of this.#cookies) yield [key, cookie];
			else yield [key, this.#map.get(key) as string];
		}
	}

	*keys(): IterableIterator<string> {
		for (const [key] of this.entries()) yield key;
	}

	*values(): IterableIterator<string> {
		for (const [, value] of this.entries()) yield value;
	}

	[Symbol.iterator](): IterableIterator<[string, string]> {
		return this.entries();
	}

	get [Symbol.toStringTag](): string {
		return "Headers";
	}
}

function checkedName(name: string): string {
	const text = String(name);
	if (!TOKEN.test(text)) throw new TypeError(`Headers: "${text}" is not a valid header name`);
	return text.toLowerCase();
}

function checkedValue(value: string): string {
	const text = String(value).replace(HTTP_WHITESPACE, "");
	if (INVALID_VALUE.test(text)) throw new TypeError(`Headers: the value of a header may not hold NUL, CR or LF`);
	return text;
}
