/** Finding and reading the registry's description (first version: the interface only). */
import type { DescriptionOutcome } from "./description.ts";
import type { HttpClient } from "./http.ts";

export async function discoverDescription(
  _http: HttpClient,
  _watchBase: URL | string,
  _options: { signal?: AbortSignal; today?: string },
): Promise<DescriptionOutcome> {
  throw new Error("reading the registry's description is not written yet");
}
