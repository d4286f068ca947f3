// Stands in for react-devtools-core when test/ink-patches.test.ts bundles stock Ink: its DEV-only devtools bridge
// imports the package, which is not installed. gar's own build patches that import out (ink-patches.mjs).
export default { initialize() {}, connectToDevTools() {} };
