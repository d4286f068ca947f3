// gar's zod: the functional `zod/mini` API, with English messages (zod's classic API sets those up as it loads;
// mini leaves them to the app). Import it as a namespace (`import * as z`): the bundle then keeps and builds only the
// schema kinds gar uses, where classic makes all of its ~80 schema classes and their methods as it loads, a few
// milliseconds of every launch.
import { config, core, locales, util, type ZodMiniObject, ZodMiniType } from "zod/mini";

config(locales.en());

export * from "zod/mini";

const ZodMiniCompiledObject = core.$constructor<ZodMiniObject>("ZodMiniCompiledObject", (inst, def) => {
	core.$ZodObjectJIT.init(inst, def);
	ZodMiniType.init(inst, def);
	util.installLazyProp(inst, "shape", (self) => self._zod.def.shape, false);
});

/**
 * `object`, whose parse zod compiles into one function for the shape on first use (classic's objects are so, mini's
 * are not): for what parses thousands of values, a session's lines (loading 10,000 entries: ~95 ms, not ~112).
 */
export function compiledObject<const T extends core.$ZodLooseShape>(shape: T): ZodMiniObject<util.Writeable<T>> {
	return new ZodMiniCompiledObject({ type: "object", shape }) as ZodMiniObject<util.Writeable<T>>;
}
