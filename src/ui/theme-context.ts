import { createContext, useContext } from "react";
import { darkTheme, type Theme } from "./theme.js";

/** The one theme object every component asks for semantic tokens (one of the UI's two contexts). */
export const ThemeContext = createContext<Theme>(darkTheme);

export function useTheme(): Theme {
	return useContext(ThemeContext);
}
