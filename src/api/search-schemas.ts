/**
 * Shapes of the search interface's responses (docs/registry.md, "Search interface"). Which record fields come
 * back depends on the contract, so every field is optional (a record without a tax number is kept
 * apart, as it cannot be keyed), and objects are loose: whatever the registry adds is kept.
 */
import * as z from "zod";

export const BUSINESS_TYPES = ["companies", "self_employed", "budget_orgs", "civil_orgs"] as const;

export const businessRecordSchema = z.looseObject({
  // Kept as a plain string: a type the document does not list is shown as received, not rejected.
  type: z.string().nullish(),
  status_code: z.number().int().nullish(),
  full_name: z.string().nullish(),
  short_name: z.string().nullish(),
  address: z.string().nullish(),
  tax_number: z.string().nullish(),
  bank_accounts: z.array(z.looseObject({ bank_account: z.string() })).nullish(),
  founded_at: z.string().nullish(),
  registration_number: z.string().nullish(),
  social_tax_number: z.string().nullish(),
  representatives: z.array(z.looseObject({ name: z.string() })).nullish(),
  main_activities: z.array(z.string()).nullish(),
});
export type BusinessRecord = z.output<typeof businessRecordSchema>;

export const searchPageSchema = z.looseObject({
  current_page: z.number().int().nullish(),
  has_next: z.boolean(),
  results: z.array(businessRecordSchema),
});
export type SearchPage = z.output<typeof searchPageSchema>;
