/**
 * A refused key ends every request of the run at once. The first 401 or 403 (from the interface
 * the key belongs to, or from a file origin) aborts the requests in flight and every wait, and no
 * request starts after it: the registry restricts a client that goes on calling with a key it has
 * refused. Shared by the clients of one key; the error names the key's variable, never the key.
 */
import { ApiError } from "./errors.ts";

export class KeyRefusal {
  private readonly controller = new AbortController();
  private first: ApiError | undefined;

  /** `variable` is where the key came from (REGWATCH_API_KEY, or an account's api_key_env). */
  constructor(readonly variable: string) {}

  /** Aborted at the first refusal; its reason is the refusal's error. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The first refusal, naming the variable; undefined while the key has not been refused. */
  get error(): ApiError | undefined {
    return this.first;
  }

  /** Notes a 401/403 answer; the first one aborts everything that listens to `signal`. */
  refuse(answer: ApiError): ApiError {
    if (this.first) return this.first;
    this.first = new ApiError(
      "HTTP_AUTH",
      `the registry refused the key in ${this.variable} (${answer.message}); no further request was sent. ` +
        `Set ${this.variable} to the key issued for this environment (test and production keys differ)`,
      { endpoint: answer.endpoint, status: answer.status, attempts: answer.attempts, cause: answer },
    );
    this.controller.abort(this.first);
    return this.first;
  }

  /** The error of a request cut short (or never sent) because an earlier one was refused. */
  cut(endpoint: string, attempts: number): ApiError {
    const first = this.first;
    return new ApiError(
      "HTTP_AUTH",
      `${endpoint}: not completed: ${first?.message ?? "the key was refused"}`,
      {
        endpoint,
        status: first?.status,
        attempts,
        cause: first,
      },
    );
  }
}
