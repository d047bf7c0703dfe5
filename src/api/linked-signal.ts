/**
 * A signal that aborts when any of its sources does, and lets go of them when its request ends.
 *
 * `AbortSignal.any` on Node 20 keeps every signal it ever made reachable from its sources: the
 * client's long-lived stop signals (the run's, the client's close, a key's refusal) gathered one
 * composite per request and attempt, some 16,000 each over a five-minute backfill, and a daemon
 * or worker that never exits would hold them all. Here each source carries one listener whatever
 * the number of requests, and a request removes itself from its sources when it ends.
 */

export interface LinkedSignal {
  signal: AbortSignal | undefined;
  /** Detaches the signal from its sources; call once the request it guarded has ended. */
  release(): void;
}

/** Per source signal: the controllers following it, told once when it aborts. */
const followers = new WeakMap<AbortSignal, Set<AbortController>>();

function follow(source: AbortSignal, follower: AbortController): () => void {
  let set = followers.get(source);
  if (set === undefined) {
    const created = new Set<AbortController>();
    set = created;
    followers.set(source, created);
    source.addEventListener(
      "abort",
      () => {
        for (const each of created) each.abort(source.reason);
        created.clear();
      },
      { once: true },
    );
  }
  set.add(follower);
  return () => set.delete(follower);
}

const NOTHING_TO_RELEASE = () => {};

export function linkSignals(...sources: (AbortSignal | undefined)[]): LinkedSignal {
  const present = sources.filter((s): s is AbortSignal => s !== undefined);
  if (present.length <= 1) return { signal: present[0], release: NOTHING_TO_RELEASE };
  const controller = new AbortController();
  const aborted = present.find((s) => s.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, release: NOTHING_TO_RELEASE };
  }
  const unfollow = present.map((source) => follow(source, controller));
  return {
    signal: controller.signal,
    release: () => {
      for (const each of unfollow) each();
    },
  };
}
