/**
 * Many keys on one emulator: each key (a tenant, as a customer of the registry is one) has a world
 * of its own (its own seed, so its own businesses, changes and values; its own watch lists) and
 * is counted on its own by the rate limit, as the registry counts per key. The clock, the fault
 * rules, the request log and the settings are shared. Without tenants the emulator has exactly
 * one, with the `apiKey` option's key, and change files live at the file base as they always did;
 * with tenants each one's files live under a tag of its own (`<file base>/t3/<date>/...`), so a
 * file request, which carries no key on a separate origin, still reaches the right world.
 */
import type { Registry, SeedList } from "./registry.ts";

export interface TenantOptions {
  /** The X-Api-Key that selects this world. */
  apiKey: string;
  /** Seed of this key's world; default one derived from the emulator's seed and the key's place. */
  seed?: number | string;
  /** Lists this key has at start. */
  lists?: SeedList[];
}

export interface Tenant {
  apiKey: string;
  /** Path segment of this key's change files ("" for the only key of a plain emulator). */
  tag: string;
  registry: Registry;
}

// More keys than any benchmark needs (the fleet at scale: 1,000); each world costs memory of its own.
export const MAX_TENANTS = 2000;

/** Every problem of a `tenants` option, each naming the entry. */
export function tenantProblems(tenants: unknown, apiKeyGiven: boolean): string[] {
  if (tenants === undefined) return [];
  if (!Array.isArray(tenants) || tenants.length === 0) return ["tenants must be a non-empty array"];
  const problems: string[] = [];
  if (tenants.length > MAX_TENANTS) problems.push(`tenants must have at most ${MAX_TENANTS} entries`);
  if (apiKeyGiven) problems.push("give either apiKey or tenants (each tenant has its own apiKey)");
  const seen = new Set<string>();
  tenants.forEach((tenant: unknown, i) => {
    const t = (typeof tenant === "object" && tenant !== null ? tenant : {}) as Record<string, unknown>;
    const key = t.apiKey;
    if (typeof key !== "string" || !/^[\x21-\x7e]{1,200}$/.test(key)) {
      problems.push(`tenants[${i}].apiKey must be 1 to 200 visible ASCII characters`);
    } else if (seen.has(key)) {
      problems.push(`tenants[${i}].apiKey repeats an earlier tenant's key`);
    } else seen.add(key);
    const seed = t.seed;
    if (seed !== undefined && typeof seed !== "string" && !Number.isInteger(seed))
      problems.push(`tenants[${i}].seed must be an integer or a string`);
    const unknown = Object.keys(t).filter((k) => !["apiKey", "seed", "lists"].includes(k));
    for (const k of unknown) problems.push(`tenants[${i}] has an unknown field ${k}`);
  });
  return problems;
}

/** The seed of the tenant at `index` when it names none. */
export function tenantSeed(emulatorSeed: number | string, index: number): string {
  return `${String(emulatorSeed)}/tenant-${index + 1}`;
}

/** The worlds of an emulator, found by key (API requests) or by file path (change files). */
export class Tenants {
  private readonly byApiKey: Map<string, Tenant>;
  private readonly byTag: Map<string, Tenant>;

  /** `tagged`: the files of each tenant live under its tag (an emulator given tenants). */
  constructor(
    readonly all: Tenant[],
    readonly tagged: boolean,
  ) {
    this.byApiKey = new Map(all.map((t) => [t.apiKey, t]));
    this.byTag = new Map(all.map((t) => [t.tag, t]));
  }

  /** The first tenant: the plain emulator's only one; the admin routes' default. */
  get primary(): Tenant {
    return this.all[0]!;
  }

  byKey(key: string | undefined): Tenant | undefined {
    return key === undefined ? undefined : this.byApiKey.get(key);
  }

  /** The tenant a change file path (after the file base) belongs to, and the path inside its world. */
  forFile(relative: string): { tenant: Tenant; relative: string } | null {
    if (!this.tagged) return { tenant: this.primary, relative };
    const slash = relative.indexOf("/");
    const tenant = slash > 0 ? this.byTag.get(relative.slice(0, slash)) : undefined;
    return tenant ? { tenant, relative: relative.slice(slash + 1) } : null;
  }

  /** The tenant an admin request addresses: `?key=` when given, else the first. */
  forAdmin(key: string | undefined): Tenant | undefined {
    return key === undefined ? this.primary : this.byApiKey.get(key);
  }
}
