import { it } from "vitest";
