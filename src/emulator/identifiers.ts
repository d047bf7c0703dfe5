/**
 * Where each business sits in the generated data set and the identifiers derived from that place.
 * Every identifier is built from a seeded permutation of the business's ordinal within its type,
 * so it can be decoded back to a candidate business without any index; callers confirm the
 * candidate by regenerating it and comparing.
 */
import { withAccountCheckDigit, withTaxCheckDigit } from "./check-digits.ts";
import { mix, Permutation } from "./random.ts";

export const BUSINESS_TYPES = ["companies", "self_employed", "budget_orgs", "civil_orgs"] as const;
export type BusinessType = (typeof BUSINESS_TYPES)[number];

/** Identifier spaces (5-digit budget register numbers above all) allow at most this many businesses. */
export const MAX_BUSINESSES = 1_000_000;

// Share of each type in every block of 100 consecutive businesses.
const SHARES: ReadonlyArray<readonly [BusinessType, number]> = [
  ["companies", 45],
  ["self_employed", 35],
  ["civil_orgs", 13],
  ["budget_orgs", 7],
];
const BLOCK = 100;
// Sole proprietors' register numbers below this bound; converted former proprietors (twins) above it.
const TWIN_REG_OFFSET = 50_000_000;

const pad = (n: number, width: number) => String(n).padStart(width, "0");

export interface Place {
  type: BusinessType;
  ordinal: number;
}

export class IdentifierSpace {
  private readonly slotType: BusinessType[] = [];
  private readonly slotRank: number[] = [];
  private readonly slotsOfType = new Map<BusinessType, number[]>();
  private readonly perm: Record<string, Permutation>;

  constructor(
    private readonly seed: number,
    readonly count: number,
  ) {
    const slots = SHARES.flatMap(([type, share]) => Array.from({ length: share }, () => type));
    // The seed shuffles the order of types inside a block (Fisher-Yates with seeded draws).
    for (let i = slots.length - 1; i > 0; i--) {
      const j = mix(seed, 11, i) % (i + 1);
      [slots[i], slots[j]] = [slots[j]!, slots[i]!];
    }
    for (const [slot, type] of slots.entries()) {
      const ofType = this.slotsOfType.get(type) ?? [];
      this.slotRank.push(ofType.length);
      this.slotType.push(type);
      ofType.push(slot);
      this.slotsOfType.set(type, ofType);
    }
    const p = (size: number, salt: number) => new Permutation(size, seed, salt);
    this.perm = {
      companyTax: p(1_000_000, 21),
      soleTax: p(1_000_000, 22),
      civilTax: p(200_000, 23),
      budgetTax: p(100_000, 24),
      companyReg: p(1_000_000, 31),
      soleReg: p(TWIN_REG_OFFSET, 32),
      twinReg: p(TWIN_REG_OFFSET, 33),
      civilReg: p(20 * 99 * 1000, 34),
      budgetReg: p(100_000, 35),
      account: p(100_000_000, 41),
    };
  }

  place(index: number): Place {
    const slot = index % BLOCK;
    const type = this.slotType[slot]!;
    const share = this.slotsOfType.get(type)!.length;
    return { type, ordinal: Math.floor(index / BLOCK) * share + this.slotRank[slot]! };
  }

  /** Index of a type's ordinal, or null when that business is beyond the data set's size. */
  indexOf(type: BusinessType, ordinal: number): number | null {
    const slots = this.slotsOfType.get(type)!;
    const index = Math.floor(ordinal / slots.length) * BLOCK + slots[ordinal % slots.length]!;
    return index < this.count ? index : null;
  }

  /** A few companies were sole proprietors before, under the same tax base number. */
  hasTwin(index: number): boolean {
    const { type, ordinal } = this.place(index);
    return type === "companies" && mix(this.seed, 51, ordinal) % 50 === 0;
  }

  taxId(index: number): string {
    const { type, ordinal } = this.place(index);
    const lead = mix(this.seed, 61, ordinal);
    switch (type) {
      case "companies":
        return withTaxCheckDigit(`${2 + (lead % 2)}${pad(this.perm.companyTax!.forward(ordinal), 6)}`);
      case "self_employed":
        return withTaxCheckDigit(`${6 + (lead % 3)}${pad(this.perm.soleTax!.forward(ordinal), 6)}`);
      case "civil_orgs": {
        const v = this.perm.civilTax!.forward(ordinal);
        return withTaxCheckDigit(`${v < 100_000 ? "18" : "19"}${pad(v % 100_000, 5)}`);
      }
      case "budget_orgs":
        return withTaxCheckDigit(`15${pad(this.perm.budgetTax!.forward(ordinal), 5)}`);
    }
  }

  /** The business a well-formed tax base number belongs to, or null. */
  indexOfTaxId(taxId: string): number | null {
    const seven = taxId.slice(0, 7);
    let type: BusinessType;
    let ordinal: number;
    if (seven.startsWith("15"))
      [type, ordinal] = ["budget_orgs", this.perm.budgetTax!.backward(Number(seven.slice(2)))];
    else if (/^1[89]/.test(seven)) {
      const v = (seven[1] === "9" ? 100_000 : 0) + Number(seven.slice(2));
      [type, ordinal] = ["civil_orgs", this.perm.civilTax!.backward(v)];
    } else if (/^[23]/.test(seven)) {
      [type, ordinal] = ["companies", this.perm.companyTax!.backward(Number(seven.slice(1)))];
    } else if (/^[678]/.test(seven)) {
      [type, ordinal] = ["self_employed", this.perm.soleTax!.backward(Number(seven.slice(1)))];
    } else return null;
    const index = this.indexOf(type, ordinal);
    return index !== null && this.taxId(index) === taxId ? index : null;
  }

  /** Registration number; court and form codes come from the generated record. */
  registrationNumber(index: number, court: string, formCode: string): string {
    const { type, ordinal } = this.place(index);
    switch (type) {
      case "companies":
        return `${court}-${formCode}-${pad(this.perm.companyReg!.forward(ordinal), 6)}`;
      case "self_employed":
        return pad(this.perm.soleReg!.forward(ordinal), 8);
      case "civil_orgs": {
        const v = this.perm.civilReg!.forward(ordinal);
        return `${pad(Math.floor(v / 99_000) + 1, 2)}-${pad((Math.floor(v / 1000) % 99) + 1, 2)}-${pad(v % 1000, 3)}`;
      }
      case "budget_orgs":
        return pad(this.perm.budgetReg!.forward(ordinal), 5);
    }
  }

  /** Register number the converted company had as a sole proprietor. */
  twinRegistrationNumber(index: number): string {
    return pad(TWIN_REG_OFFSET + this.perm.twinReg!.forward(this.place(index).ordinal), 8);
  }

  /**
   * Candidate business of a registration number, and whether the number is the former sole
   * proprietor's. Null when the value has none of the four formats or decodes outside the data.
   */
  decodeRegistrationNumber(value: string): { index: number; twin: boolean } | null {
    const candidate = (type: BusinessType, ordinal: number, twin = false) => {
      const index = this.indexOf(type, ordinal);
      return index === null ? null : { index, twin };
    };
    let m = /^\d{2}-\d{2}-(\d{6})$/.exec(value);
    if (m) return candidate("companies", this.perm.companyReg!.backward(Number(m[1])));
    m = /^(\d{2})-(\d{2})-(\d{3})$/.exec(value);
    if (m) {
      const v = (Number(m[1]) - 1) * 99_000 + (Number(m[2]) - 1) * 1000 + Number(m[3]);
      const valid = Number(m[1]) >= 1 && Number(m[1]) <= 20 && Number(m[2]) >= 1;
      return valid ? candidate("civil_orgs", this.perm.civilReg!.backward(v)) : null;
    }
    if (/^\d{8}$/.test(value)) {
      const n = Number(value);
      return n < TWIN_REG_OFFSET
        ? candidate("self_employed", this.perm.soleReg!.backward(n))
        : candidate("companies", this.perm.twinReg!.backward(n - TWIN_REG_OFFSET), true);
    }
    if (/^\d{5}$/.test(value)) return candidate("budget_orgs", this.perm.budgetReg!.backward(Number(value)));
    return null;
  }

  /**
   * Account `k` of a company: bank and branch from the record, the middle group from the ordinal.
   * The account part (middle and tail, 16 digits) carries one check digit over all fifteen before it.
   */
  bankAccount(index: number, k: number, bankAndBranch: string, tail: string): string {
    const middle = pad(this.perm.account!.forward(this.place(index).ordinal * 2 + k), 8);
    const last = withAccountCheckDigit(middle + tail).slice(8);
    return `${withAccountCheckDigit(bankAndBranch)}-${middle}-${last}`;
  }

  /** Company and account number a middle group belongs to, or null. */
  decodeAccountMiddle(middle: string): { index: number; k: number } | null {
    const v = this.perm.account!.backward(Number(middle));
    const index = this.indexOf("companies", Math.floor(v / 2));
    return index === null ? null : { index, k: v % 2 };
  }
}
