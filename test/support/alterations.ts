// What the variation proxy (variation-proxy.ts) can apply, by name: an allowed variation (variations.ts),
// which the suite must pass, or a deviation (deviations.ts), which it must fail. The names of the two
// lists are distinct, so that a run's name says which it is.

import { DEVIATIONS } from "./deviations.ts";
import { VARIATIONS, type VariationHooks } from "./variations.ts";

export function alterationNamed(name: string): { readonly create: () => VariationHooks } {
  const found = [...VARIATIONS, ...DEVIATIONS].filter((a) => a.name === name);
  if (found.length !== 1)
    throw new Error(
      `${found.length === 0 ? "unknown" : "ambiguous"} variation or deviation ${name}: names must be distinct across both lists`,
    );
  return found[0] as { readonly create: () => VariationHooks };
}
