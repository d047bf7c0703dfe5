/**
 * A server that cannot listen (the port taken, a privileged port, an address this machine does
 * not have) is named with what to change: the variable, and the option where a command has one.
 */
import { RegwatchError } from "./errors.ts";

export interface ListenSetting {
  /** What was to listen: "the web console", "the health and metrics server". */
  service: string;
  host: string;
  port: number;
  /** Variables of the port and the address. */
  portVariable: string;
  hostVariable: string;
  /** The command's option for the port, when it has one (`regwatch web --port`). */
  portOption?: string;
}

/** The error to throw for a failed listen; anything that is not a listen failure is returned as it is. */
export function listenError(error: unknown, setting: ListenSetting): unknown {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== "string") return error;
  const where = `${setting.host.includes(":") ? `[${setting.host}]` : setting.host}:${setting.port}`;
  const choose = `choose another port with ${setting.portVariable}${setting.portOption ? ` or ${setting.portOption}` : ""}`;
  const why =
    code === "EADDRINUSE"
      ? `the port is already in use by another program (${code}): ${choose}, or stop what holds it`
      : code === "EACCES"
        ? `this user may not listen on port ${setting.port} (${code}; ports below 1024 need privileges): ${choose}`
        : code === "EADDRNOTAVAIL"
          ? `${setting.host} is not an address of this machine (${code}): correct ${setting.hostVariable}`
          : undefined;
  if (!why) return error;
  return new RegwatchError("LISTEN", `${setting.service} cannot listen on ${where}: ${why}`, {
    cause: error,
  });
}
