/** Every request the emulator served, for tests and benchmarks to inspect. */

export interface RequestLogEntry {
  seq: number;
  /** Real time of arrival, ms since the epoch. */
  at: number;
  /** Simulated time of arrival. */
  simAt: string;
  origin: "api" | "files";
  method: string;
  path: string;
  query: Record<string, string>;
  endpoint: string;
  /** Status sent; 0 when the connection was reset instead. */
  status: number;
  fault?: string;
  keyValid: boolean;
  /** The X-Api-Key the request carried, when it carried one. */
  key?: string;
  /** On an emulator with tenants: the tag of the key's world that answered (files: the path's). */
  tenant?: string;
  /** tax_ids of a bulk request's body. */
  taxIds?: string[];
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private nextSeq = 1;
  private arrivalWaiters: {
    test: (entry: RequestLogEntry) => boolean;
    resolve: (entry: RequestLogEntry) => void;
  }[] = [];

  /** Sequence number for a request that just arrived; entries are ordered by it. */
  arrival(): number {
    return this.nextSeq++;
  }

  /** A request was routed and is about to be answered (a delay or other fault still ahead). */
  arrived(entry: RequestLogEntry): void {
    for (const waiter of [...this.arrivalWaiters]) {
      if (!waiter.test(entry)) continue;
      this.arrivalWaiters.splice(this.arrivalWaiters.indexOf(waiter), 1);
      waiter.resolve({ ...entry });
    }
  }

  /** Resolves when the next request that satisfies `test` arrives, before it is answered. */
  nextArrival(test: (entry: RequestLogEntry) => boolean): Promise<RequestLogEntry> {
    return new Promise((resolve) => this.arrivalWaiters.push({ test, resolve }));
  }

  record(entry: RequestLogEntry): void {
    this.entries.push(entry);
  }

  list(): RequestLogEntry[] {
    return [...this.entries].sort((a, b) => a.seq - b.seq);
  }

  reset(): void {
    this.entries = [];
  }

  /** Counts by endpoint and status, plus the total. */
  stats(): { total: number; byEndpoint: Record<string, Record<string, number>> } {
    const byEndpoint: Record<string, Record<string, number>> = {};
    for (const { endpoint, status } of this.entries) {
      const counts = byEndpoint[endpoint] ?? {};
      byEndpoint[endpoint] = counts;
      counts[status] = (counts[status] ?? 0) + 1;
    }
    return { total: this.entries.length, byEndpoint };
  }
}
