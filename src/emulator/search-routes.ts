/** The search interface (v1): registration number, name and bank account lookups, paginated. */
import { type Business, searchRecord } from "./businesses.ts";
import { foldText } from "./name-search.ts";
import type { Registry } from "./registry.ts";
import { failure, json, type Reply } from "./reply.ts";

/** Results per page (the spec does not say); 50 name hits make five pages. */
export const PAGE_SIZE = 10;
/** Most hits a name search returns, and the default and maximum of `limit`. */
export const MAX_NAME_HITS = 50;
export const MIN_NAME_LENGTH = 3;

const REG_NUMBER_FORMATS = [/^\d{2}-\d{2}-\d{6}$/, /^\d{8}$/, /^\d{2}-\d{2}-\d{3}$/, /^\d{5}$/];
const BANK_ACCOUNT = /^\d{8}-\d{8}(-\d{8})?$/;

function positiveInt(raw: string | undefined, fallback: number): number | null {
  if (raw === undefined) return fallback;
  return /^\d+$/.test(raw) && Number(raw) >= 1 ? Number(raw) : null;
}

export function searchReply(endpoint: string, query: Record<string, string>, registry: Registry): Reply {
  const value = query.value?.trim();
  if (!value) return failure(400, "query parameter value is required");
  const page = positiveInt(query.page, 1);
  if (page === null) return failure(400, "page must be a positive integer");
  let hits: Business[];
  switch (endpoint) {
    case "GET /v1/reg-numbers":
      if (!REG_NUMBER_FORMATS.some((format) => format.test(value))) {
        return failure(
          400,
          "value must be a registration number: xx-yy-zzzzzz, xxxxxxxx, xx-yy-zzz or xxxxx",
        );
      }
      hits = registry.directory.byRegistrationNumber(value);
      break;
    case "GET /v1/names": {
      if (foldText(value).replace(/ /g, "").length < MIN_NAME_LENGTH) {
        return failure(400, `value must have at least ${MIN_NAME_LENGTH} letters or digits`);
      }
      const limit = positiveInt(query.limit, MAX_NAME_HITS);
      if (limit === null) return failure(400, "limit must be a positive integer");
      hits = registry.searchNames(value, Math.min(limit, MAX_NAME_HITS));
      break;
    }
    case "GET /v1/bank-accounts":
      if (!BANK_ACCOUNT.test(value)) {
        return failure(
          400,
          "value must be a bank account xxxxxxxx-xxxxxxxx-xxxxxxxx or its first 17 characters",
        );
      }
      hits = registry.byBankAccount(value);
      break;
    default:
      return failure(404, `no such endpoint: ${endpoint}`);
  }
  const start = (page - 1) * PAGE_SIZE;
  return json(200, {
    current_page: page,
    has_next: hits.length > start + PAGE_SIZE,
    results: hits.slice(start, start + PAGE_SIZE).map((b) => searchRecord(registry.current(b))),
  });
}
