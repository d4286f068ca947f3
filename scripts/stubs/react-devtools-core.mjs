// Stands in for react-devtools-core and Ink's devtools bridge, loaded only when DEV=true: gar never connects to React DevTools,
// and without this stub the bundle cannot resolve the import.
export default { initialize() {}, connectToDevTools() {} };
