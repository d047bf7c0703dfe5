/** What reading the registry's description gives: the changes operation's parameters, or why not. */

/** What the description says of the changes operation's parameters. */
export interface ChangesParams {
  /** Query parameter of the interval's first day. */
  from: string;
  /** Query parameter of the interval's last day. */
  to: string;
  /** Query parameter of the page number, when the operation has one. */
  page?: string;
  /** A documented date format (e.g. "date", or a pattern), when there is one. */
  dateFormat?: string;
  /** Whether the interval's end is inclusive, when the description says so. */
  endInclusive?: boolean;
}

export type DescriptionOutcome =
  | { status: "found"; url: string; sha256: string; readOn: string; params: ChangesParams }
  | {
      status: "absent" | "unreadable";
      tried: string[];
      problem: string;
      /** The registry could not be reached well enough to tell (network, 5xx, time): worth asking again soon. */
      transient?: boolean;
    };
