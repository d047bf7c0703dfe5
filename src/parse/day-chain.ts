/**
 * The order of several changes of one heading that nothing but their values can tell: a file
 * lists entries in no particular order, and two changes of one business on one day carry the
 * same date. Their values chain (the old value of each is the new value of the one before), and
 * when exactly one order chains them all, that is the order they happened in. Pure.
 *
 * Steps with the same old and the same new value are taken as one event told twice (the same
 * change in two chapters' files, an entry repeated): they share a position. A true A→B, B→A, A→B
 * therefore reads as ambiguous, which errs on the side of saying "unknown".
 */

export interface Step {
  oldValue: unknown;
  newValue: unknown;
  /** The file did not give the old value: it chains after nothing (it may still begin a chain). */
  oldUnknown?: boolean;
}

/** Events beyond this many are not searched exhaustively (a day never has that many of one heading). */
export const EXHAUSTIVE_LIMIT = 12;

/** JSON text with object keys sorted, so that equal values compare equal whatever their key order. */
export function valueKey(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

interface Event {
  old: string;
  new: string;
}

/**
 * The position (1 = first) of each step in the one order that chains them all, or null when no
 * order or more than one does. A single step is position 1.
 */
export function chainOrder(steps: readonly Step[]): number[] | null {
  const events: Event[] = [];
  const eventOf = new Map<string, number>();
  const stepEvent = steps.map((step, i) => {
    // Not JSON text, so it equals no value: an unknown old value follows no step.
    const old = step.oldUnknown ? `?unknown ${i}` : valueKey(step.oldValue);
    const event = { old, new: valueKey(step.newValue) };
    const key = JSON.stringify([event.old, event.new]);
    let index = eventOf.get(key);
    if (index === undefined) {
      index = events.push(event) - 1;
      eventOf.set(key, index);
    }
    return index;
  });
  const order = orderEvents(events);
  if (!order) return null;
  const position = new Map(order.map((event, i) => [event, i + 1]));
  return stepEvent.map((event) => position.get(event)!);
}

/** Event indexes in their one chaining order, or null. */
function orderEvents(events: readonly Event[]): number[] | null {
  if (events.length <= 1) return events.map((_, i) => i);
  return simplePath(events) ?? (events.length <= EXHAUSTIVE_LIMIT ? exhaustive(events) : null);
}

/**
 * The common case in linear time: every old value and every new value occurs once, so each
 * event has at most one possible successor; the chain is the walk from the one event whose old
 * value nothing produced. Undefined when values repeat (the exhaustive search decides then),
 * null when the walk cannot cover every event (a cycle or two separate chains).
 */
function simplePath(events: readonly Event[]): number[] | null | undefined {
  const byOld = new Map<string, number>();
  const news = new Set<string>();
  for (const [i, e] of events.entries()) {
    if (byOld.has(e.old) || news.has(e.new)) return undefined;
    byOld.set(e.old, i);
    news.add(e.new);
  }
  const starts = events.flatMap((e, i) => (news.has(e.old) ? [] : [i]));
  if (starts.length !== 1) return null;
  const order: number[] = [];
  for (let at: number | undefined = starts[0]; at !== undefined; at = byOld.get(events[at]!.new)) {
    order.push(at);
    if (order.length > events.length) return null;
  }
  return order.length === events.length ? order : null;
}

/**
 * Counts the orders that chain every event (stopping at two), over subsets of events: ways[m][j]
 * is how many chains use exactly the events of m and end with j. Exactly one gives the order.
 */
function exhaustive(events: readonly Event[]): number[] | null {
  const n = events.length;
  const full = (1 << n) - 1;
  const follows = (i: number, j: number) => events[i]!.new === events[j]!.old;
  const ways: Uint8Array[] = Array.from({ length: 1 << n }, () => new Uint8Array(n));
  for (let i = 0; i < n; i++) ways[1 << i]![i] = 1;
  for (let mask = 1; mask <= full; mask++) {
    for (let last = 0; last < n; last++) {
      const w = ways[mask]![last]!;
      if (w === 0) continue;
      for (let next = 0; next < n; next++) {
        if (mask & (1 << next) || !follows(last, next)) continue;
        const row = ways[mask | (1 << next)]!;
        row[next] = Math.min(2, row[next]! + w);
      }
    }
  }
  const total = ways[full]!.reduce((sum, w) => sum + w, 0);
  if (total !== 1) return null;
  // Walk back from the one chain's end: each step has exactly one predecessor with a chain.
  const order: number[] = [];
  let mask = full;
  let last = ways[full]!.indexOf(1);
  while (last >= 0) {
    order.unshift(last);
    const rest = mask & ~(1 << last);
    if (rest === 0) break;
    const prev = [...Array(n).keys()].find((i) => rest & (1 << i) && ways[rest]![i]! > 0 && follows(i, last));
    mask = rest;
    last = prev ?? -1;
  }
  return order;
}
