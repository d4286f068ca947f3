/** A colour Ink's `<Text color>` accepts: a hex string ("#7aa2f7") or a name ("cyan"). */
export type Color = string;

/**
 * Semantic colour tokens: components ask for `theme.diff.added`, never for a raw colour, so a theme file can
 * restyle everything. One object holds every colour choice of the UI.
 */
export type Theme = {
	name: string;
	text: Color;
	muted: Color;
	accent: Color;
	border: Color;
	user: Color;
	assistant: Color;
	thinking: Color;
	tool: Color;
	success: Color;
	warning: Color;
	error: Color;
	diff: { added: Color; removed: Color; context: Color; hunk: Color };
	code: {
		keyword: Color;
		string: Color;
		number: Color;
		comment: Color;
		function: Color;
		type: Color;
		variable: Color;
		builtin: Color;
		literal: Color;
		title: Color;
		attr: Color;
		meta: Color;
		default: Color;
	};
	inspector: { label: Color; value: Color; barFill: Color; barEmpty: Color };
	status: { fg: Color; bg: Color };
	selection: Color;
};

/** The default theme for dark terminals (a Tokyo Night palette). */
export const darkTheme: Theme = {
	name: "dark",
	text: "#c0caf5",
	muted: "#737aa2",
	accent: "#7aa2f7",
	border: "#3b4261",
	user: "#bb9af7",
	assistant: "#7dcfff",
	thinking: "#565f89",
	tool: "#7dcfff",
	success: "#9ece6a",
	warning: "#e0af68",
	error: "#f7768e",
	diff: { added: "#9ece6a", removed: "#f7768e", context: "#737aa2", hunk: "#7dcfff" },
	code: {
		keyword: "#bb9af7",
		string: "#9ece6a",
		number: "#ff9e64",
		comment: "#565f89",
		function: "#7aa2f7",
		type: "#2ac3de",
		variable: "#c0caf5",
		builtin: "#e0af68",
		literal: "#ff9e64",
		title: "#7aa2f7",
		attr: "#73daca",
		meta: "#89ddff",
		default: "#b4f9f8",
	},
	inspector: { label: "#737aa2", value: "#c0caf5", barFill: "#7aa2f7", barEmpty: "#3b4261" },
	status: { fg: "#c0caf5", bg: "#24283b" },
	selection: "#364a82",
};
