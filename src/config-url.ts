/**
 * The registry's base addresses as its document gives them. The document calls the watch
 * interface's address `{watch_base_url}` and says its paths (`/v2/lists`, ...) are relative to it
 * without its version suffix: the address a user copies ends in `/v2`, and one written without it
 * must work too. The same holds for the search interface and `/v1`. Either may sit under a path
 * prefix (`https://host/watch/v2`).
 */

export type InterfaceVersion = "v1" | "v2";

export interface InterfaceBase {
  /** The address without a trailing slash or version segment: the interface's paths are appended to it. */
  root: string;
  /** `root` + `/v1` or `/v2`: the address the registry's document calls `{watch_base_url}`. */
  versioned: string;
}

/** A last path segment that names a version (`v2`, `V1`, `v10`). */
const VERSION_SEGMENT = /\/v(\d+)$/i;

/**
 * Splits a base address into its root and its versioned form. Trailing slashes are dropped; a
 * trailing segment equal to `version` (any case) is taken off the root. Pure, no validation:
 * `baseUrlProblem` says what is wrong with an address before it gets here.
 */
export function interfaceBase(address: string, version: InterfaceVersion): InterfaceBase {
  const trimmed = address.replace(/\/+$/, "");
  const match = VERSION_SEGMENT.exec(trimmed);
  const root =
    match && `v${match[1]}` === version ? trimmed.slice(0, -match[0].length).replace(/\/+$/, "") : trimmed;
  return { root, versioned: `${root}/${version}` };
}

/**
 * Why `address` cannot be a base address of the interface of `version`, or undefined when it
 * can: a query, fragment or credentials would be lost or leak when paths are appended, and a
 * last segment naming another version (`/v1` for the watch interface) is a mix-up of the two
 * addresses, which would otherwise be asked for `/v1/v2/lists`.
 */
export function baseUrlProblem(address: string, version: InterfaceVersion): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return "must be an http(s) URL";
  }
  if (url.search || url.hash || address.includes("#") || /\?/.test(address))
    return "must not have a query or fragment (paths are appended to it)";
  if (url.username || url.password) return "must not carry credentials (the key goes in a header)";
  const match = VERSION_SEGMENT.exec(url.pathname.replace(/\/+$/, ""));
  if (match && `v${match[1]}` !== version) {
    return (
      `must not end in /v${match[1]}: this interface is ${version}, give its address ending in /${version} ` +
      "(or without a version segment)"
    );
  }
  return undefined;
}
