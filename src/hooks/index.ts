/** Hooks: shell commands around the agent's steps (README "Hooks"). Loaded only when hooks are configured. */
export { type HookOutcome, type HookOwner, Hooks, type HooksOptions, type PermissionMode } from "./hooks.js";
export { fromToolInput, toolInput } from "./payload.js";
export { type HookProcessResult, runHookProcess } from "./process.js";
export { clipText, hookName } from "./verdict.js";
