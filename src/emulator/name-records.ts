/**
 * A name index over the data set, filled business by business (a former sole proprietor's twin
 * right after its company) with the names some source gives: the founding names, or the names
 * the search records show on one day.
 */
import type { Business, BusinessDirectory } from "./businesses.ts";
import { NameIndex } from "./name-search.ts";

export class NameRecords {
  private readonly index = new NameIndex();
  private readonly records: Array<{ index: number; twin: boolean }> = [];
  private reached = 0;

  /** `namesOf` gives a business's full and short names by position; twins keep their founding name. */
  constructor(
    private readonly directory: BusinessDirectory,
    private readonly namesOf: (index: number) => string[],
  ) {}

  get complete(): boolean {
    return this.reached >= this.directory.count;
  }

  /** Indexes the next `count` businesses (a slice of a warm-up). */
  fillNext(count: number): void {
    this.fillTo(this.reached + count);
  }

  /** Indexes the businesses up to position `end` not indexed yet. */
  private fillTo(end: number): void {
    for (let i = this.reached; i < Math.min(end, this.directory.count); i++) {
      this.index.add(this.namesOf(i));
      this.records.push({ index: i, twin: false });
      const twin = this.directory.twinOf(i);
      if (twin) {
        this.index.add([twin.full_name]);
        this.records.push({ index: i, twin: true });
      }
      this.reached = i + 1;
    }
  }

  /** The first `max` matching businesses in data set order; indexes whatever is left first. */
  search(query: string, max: number): Business[] {
    this.fillTo(this.directory.count);
    return this.index.search(query, max).map((position) => {
      const { index: i, twin } = this.records[position]!;
      return twin ? this.directory.twinOf(i)! : this.directory.get(i);
    });
  }
}
