/**
 * The generated business register. A record is regenerated from (seed, index) whenever it is
 * needed, so a data set of any size costs nothing until it is read; `salt` gives the same business
 * other plausible field values, which change files use as "old" and "new" values.
 */
import { fromEpochDay, toEpochDay } from "../dates.ts";
import { type BusinessType, IdentifierSpace } from "./identifiers.ts";
import { Rng } from "./random.ts";
import {
  ACTIVITIES,
  BANK_CODES,
  BUDGET_KINDS,
  CIVIL_ACTIVITIES,
  CIVIL_FORMS,
  COMPANY_FORMS,
  FANCY_WORDS,
  FEMALE_GIVEN_NAMES,
  MALE_GIVEN_NAMES,
  STREETS,
  SURNAMES,
  TOWNS,
} from "./vocabulary.ts";

/** One record as the search interface returns it, plus the fields the emulator needs itself. */
export interface Business {
  /** Position in the data set; the former sole proprietor of a converted company shares it. */
  index: number;
  twin: boolean;
  tax_id: string;
  type: BusinessType;
  status_code: 0 | 1 | 2;
  full_name: string;
  short_name?: string;
  address: string;
  tax_number: string;
  bank_accounts?: Array<{ bank_account: string }>;
  founded_at: string;
  registration_number: string;
  social_tax_number: string;
  representatives?: Array<{ name: string }>;
  main_activities: string[];
}

const FIRST_FOUNDING_DAY = toEpochDay("1990-01-02");
const FOUNDING_SPAN_DAYS = toEpochDay("2023-12-31") - FIRST_FOUNDING_DAY;

function personName(rng: Rng): string {
  const surname = rng.pick(SURNAMES);
  const roll = rng.next();
  if (roll < 0.55) return `${surname} ${rng.pick(MALE_GIVEN_NAMES)}`;
  // Married women traditionally take the husband's full name with the suffix -né.
  if (roll < 0.75) return `${surname} ${rng.pick(MALE_GIVEN_NAMES)}né`;
  return `${surname} ${rng.pick(FEMALE_GIVEN_NAMES)}`;
}

function address(rng: Rng, town: (typeof TOWNS)[number]): string {
  const [name, , postal] = town;
  const code = postal === "1" ? `1${String(1 + rng.int(23)).padStart(2, "0")}${rng.int(10)}` : postal;
  const floor = rng.chance(0.3) ? ` ${1 + rng.int(8)}. em. ${1 + rng.int(12)}.` : "";
  return `${code} ${name}, ${rng.pick(STREETS)} ${1 + rng.int(120)}.${floor}`;
}

function initials(text: string): string {
  return text
    .split(/[\s-]+/)
    .map((word) => word[0]?.toUpperCase() ?? "")
    .join("");
}

interface Common {
  index: number;
  taxId: string;
  address: string;
  foundedAt: string;
  county: string;
}

type TypeFields = Pick<
  Business,
  "status_code" | "full_name" | "tax_number" | "registration_number" | "main_activities"
> &
  Partial<Pick<Business, "short_name" | "bank_accounts" | "representatives">>;

/** Builds every record with the same keys in the same order, so they all share one object shape. */
function record(c: Common, type: BusinessType, f: TypeFields): Business {
  return {
    index: c.index,
    twin: false,
    tax_id: c.taxId,
    type,
    status_code: f.status_code,
    full_name: f.full_name,
    short_name: f.short_name,
    address: c.address,
    tax_number: f.tax_number,
    bank_accounts: f.bank_accounts,
    founded_at: c.foundedAt,
    registration_number: f.registration_number,
    social_tax_number: `HU${c.taxId}`,
    representatives: f.representatives,
    main_activities: f.main_activities,
  };
}

function companyBase(rng: Rng): string {
  switch (rng.int(4)) {
    case 0:
      return `${rng.pick(SURNAMES)} és Társa`;
    case 1:
      return `${rng.pick(SURNAMES)}-${rng.pick(SURNAMES)}`;
    case 2:
      return `${rng.pick(FANCY_WORDS)} ${rng.pick(FANCY_WORDS)}`;
    default:
      return rng.pick(FANCY_WORDS);
  }
}

export interface Naming {
  type: BusinessType;
  town: (typeof TOWNS)[number];
  fullName: string;
  shortName?: string;
  mainActivity: string;
  formCode?: string;
}

export class BusinessDirectory {
  readonly ids: IdentifierSpace;

  constructor(
    private readonly seed: number,
    readonly count: number,
  ) {
    this.ids = new IdentifierSpace(seed, count);
  }

  /** The business at `index` (its current record). */
  get(index: number, salt = 0): Business {
    const naming = this.naming(index, salt);
    const rng = new Rng(this.seed, 101, index, salt);
    const taxId = this.ids.taxId(index);
    const common: Common = {
      index,
      taxId,
      address: address(rng, naming.town),
      foundedAt: fromEpochDay(FIRST_FOUNDING_DAY + rng.int(FOUNDING_SPAN_DAYS)),
      county: naming.town[3],
    };
    // One small builder per type: a single large function here stayed unoptimised in V8.
    switch (naming.type) {
      case "companies":
        return this.company(common, rng, naming);
      case "self_employed":
        return this.soleProprietor(common, rng, naming);
      default:
        return this.organisation(common, rng, naming);
    }
  }

  /**
   * Town, names and main activity, drawn from their own stream so that the name index can be
   * built without generating whole records.
   */
  naming(index: number, salt = 0): Naming {
    const rng = new Rng(this.seed, 103, index, salt);
    const town = rng.pick(TOWNS);
    const type = this.ids.place(index).type;
    switch (type) {
      case "companies": {
        const [activity, mainActivity] = rng.pick(ACTIVITIES);
        const [formName, formShort, formCode] = rng.pick(COMPANY_FORMS);
        const base = companyBase(rng);
        const fullName = `${base} ${activity} ${formName}`;
        return {
          type,
          town,
          fullName,
          shortName: `${base} ${activity} ${formShort}`,
          mainActivity,
          formCode,
        };
      }
      case "self_employed":
        return { type, town, fullName: `${personName(rng)} e.v.`, mainActivity: rng.pick(ACTIVITIES)[1] };
      case "civil_orgs": {
        const base = rng.chance(0.3) ? town[1] : `${rng.pick(FANCY_WORDS)} ${rng.pick(FANCY_WORDS)}`;
        const fullName = `${base} ${rng.pick(CIVIL_FORMS)}`;
        return {
          type,
          town,
          fullName,
          shortName: initials(fullName),
          mainActivity: rng.pick(CIVIL_ACTIVITIES),
        };
      }
      case "budget_orgs": {
        const [kind, mainActivity] = rng.pick(BUDGET_KINDS);
        return { type, town, fullName: `${town[1]} ${kind}`, mainActivity };
      }
    }
  }

  private company(c: Common, rng: Rng, naming: Naming): Business {
    const accounts: Array<{ bank_account: string }> = [];
    for (let k = 0, n = rng.chance(0.35) ? 2 : 1; k < n; k++) {
      const bankAndBranch = rng.pick(BANK_CODES) + rng.digits(4);
      accounts.push({ bank_account: this.ids.bankAccount(c.index, k, bankAndBranch, rng.digits(7)) });
    }
    const representatives: Array<{ name: string }> = [];
    for (let k = 0, n = 1 + rng.int(3); k < n; k++) representatives.push({ name: personName(rng) });
    return record(c, "companies", {
      status_code: rng.chance(0.92) ? 1 : 0,
      full_name: naming.fullName,
      short_name: naming.shortName,
      tax_number: `${c.taxId}-2-${c.county}`,
      bank_accounts: accounts,
      registration_number: this.ids.registrationNumber(c.index, naming.town[4], naming.formCode ?? "09"),
      representatives,
      main_activities: [naming.mainActivity],
    });
  }

  private soleProprietor(c: Common, rng: Rng, naming: Naming): Business {
    const roll = rng.next();
    return record(c, "self_employed", {
      status_code: roll < 0.8 ? 1 : roll < 0.92 ? 0 : 2,
      full_name: naming.fullName,
      tax_number: `${c.taxId}-${rng.chance(0.6) ? 2 : 1}-${c.county}`,
      registration_number: this.ids.registrationNumber(c.index, "", ""),
      main_activities: [naming.mainActivity],
    });
  }

  /** Civil and budget organisations differ only in their names and VAT code. */
  private organisation(c: Common, rng: Rng, naming: Naming): Business {
    return record(c, naming.type, {
      status_code: rng.chance(naming.type === "civil_orgs" ? 0.9 : 0.97) ? 1 : 0,
      full_name: naming.fullName,
      short_name: naming.shortName,
      tax_number: `${c.taxId}-${naming.type === "civil_orgs" ? 1 : 2}-${c.county}`,
      registration_number: this.ids.registrationNumber(c.index, "", ""),
      representatives: [{ name: personName(rng) }],
      main_activities: [naming.mainActivity],
    });
  }

  /** The ceased sole proprietor a converted company used to be, under the same tax base number. */
  twinOf(index: number): Business | null {
    if (!this.ids.hasTwin(index)) return null;
    const company = this.get(index);
    const rng = new Rng(this.seed, 102, index);
    const founded = toEpochDay(company.founded_at) - 400 - rng.int(3000);
    const common: Common = {
      index,
      taxId: company.tax_id,
      address: company.address,
      foundedAt: fromEpochDay(Math.max(FIRST_FOUNDING_DAY, founded)),
      county: company.tax_number.slice(-2),
    };
    const twin = record(common, "self_employed", {
      status_code: 0,
      full_name: `${personName(rng)} e.v.`,
      tax_number: `${company.tax_id}-1-${common.county}`,
      registration_number: this.ids.twinRegistrationNumber(index),
      main_activities: company.main_activities,
    });
    twin.twin = true;
    return twin;
  }

  /** The current business of a tax base number, or null when the number belongs to nobody. */
  byTaxId(taxId: string): Business | null {
    const index = this.ids.indexOfTaxId(taxId);
    return index === null ? null : this.get(index);
  }

  /** Every record with this tax base number: the business and, for converted ones, its predecessor. */
  withTaxBase(index: number): Business[] {
    const twin = this.twinOf(index);
    return twin ? [this.get(index), twin] : [this.get(index)];
  }

  /** Records found by registration number: both records when the tax base number was shared. */
  byRegistrationNumber(value: string): Business[] {
    const found = this.ids.decodeRegistrationNumber(value);
    if (!found) return [];
    const records = this.withTaxBase(found.index);
    return records.some((b) => b.registration_number === value) ? records : [];
  }

  /**
   * Companies with an account equal to `value` (full number) or starting with it (17 characters).
   * `current` gives the record as it stands now; every account of a company, old or new, encodes
   * the company, so the candidate is found the same way.
   */
  byBankAccount(value: string, current: (b: Business) => Business = (b) => b): Business[] {
    const found = this.ids.decodeAccountMiddle(value.slice(9, 17));
    if (!found) return [];
    const company = this.get(found.index);
    const account = current(company).bank_accounts?.[found.k]?.bank_account;
    return account?.startsWith(value) ? [company] : [];
  }
}

// Field order of a search record, as the spec's table lists them.
const RECORD_FIELDS = [
  "type",
  "status_code",
  "full_name",
  "short_name",
  "address",
  "tax_number",
  "bank_accounts",
  "founded_at",
  "registration_number",
  "social_tax_number",
  "representatives",
  "main_activities",
] as const satisfies ReadonlyArray<keyof Business>;

/** The record as the search interface shows it: fields a type lacks are left out, not null. */
export function searchRecord(b: Business): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const field of RECORD_FIELDS) if (b[field] !== undefined) record[field] = b[field];
  return record;
}
