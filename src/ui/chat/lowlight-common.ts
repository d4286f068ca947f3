// lowlight with its common languages only: imported dynamically through this module so the bundle keeps just
// these (a dynamic import of "lowlight" itself would bring all ~190 grammars).
export { common, createLowlight } from "lowlight";
