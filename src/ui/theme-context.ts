import { createContext, createElement, type ReactNode, useContext, useSyncExternalStore } from "react";
import type { UiStore } from "./store.js";
import { darkTheme, type Theme } from "./theme.js";

/** The one theme object every component asks for semantic tokens (one of the UI's two contexts). */
export const ThemeContext = createContext<Theme>(darkTheme);

export function useTheme(): Theme {
	return useContext(ThemeContext);
}

/**
 * Provides the store's theme to `children`: re-renders (and so recolours every component) only when
 * `store.setTheme` changes it, not on every store change.
 */
export function StoreTheme({ store, children }: { store: UiStore; children: ReactNode }) {
	const theme = useSyncExternalStore(store.subscribe, () => store.theme);
	return createElement(ThemeContext.Provider, { value: theme }, children);
}
