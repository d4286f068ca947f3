import type { Hash } from "node:crypto";
import { nodeCrypto } from "./lazy-node.js";

/** A running sha256, fed in parts (a file read in chunks). */
export const newSha256 = (): Hash => nodeCrypto().createHash("sha256");

/** The sha256 of `data` (a string is hashed as UTF-8), in hex. */
export const sha256Hex = (data: string | Uint8Array): string => newSha256().update(data).digest("hex");

/** `bytes` random bytes in hex, from node:crypto: a temporary file's name no other writer picks. */
export const randomHex = (bytes: number): string => nodeCrypto().randomBytes(bytes).toString("hex");
