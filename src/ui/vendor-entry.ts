// The libraries the full-screen UI runs on (React, Ink, yoga): about two thirds of its code, and the same in every
// launch. The build bundles them from here into one CommonJS file, dist/ui-vendor.cjs, that ui/vendor.ts loads with a
// V8 code cache; in the shipped bundle gar's own `ink` and `react` imports read from it (scripts/build.mjs).
import * as ink from "ink";
import * as react from "react";
import * as jsxRuntime from "react/jsx-runtime";

export { ink, jsxRuntime, react };
