import { createContext, createElement, type ReactNode, useContext, useSyncExternalStore } from "react";
import { darkTheme, type Theme } from "./theme.js";

/** The one theme object every component asks for semantic tokens (one of the UI's two contexts). */
export const ThemeContext = createContext<Theme>(darkTheme);

export function useTheme(): Theme {
	return useContext(ThemeContext);
}

/** Where the theme on screen is kept (the UI store): its current theme and a change listener. */
export type ThemeSource = { readonly theme: Theme; subscribe: (listener: () => void) => () => void };

/**
 * Provides the store's theme to `children`: re-renders (and so recolours every component) only when
 * `store.setTheme` changes it, not on every store change.
 */
export function StoreTheme({ store, children }: { store: ThemeSource; children: ReactNode }) {
	const theme = useSyncExternalStore(store.subscribe, () => store.theme);
	return createElement(ThemeContext.Provider, { value: theme }, children);
}
