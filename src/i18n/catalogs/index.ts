/**
 * The catalogs: one file per page area and language (en/, hu/), each Hungarian file checked by
 * the compiler to have exactly the English file's keys. To add a string: add the key to the
 * English area file, then to the Hungarian one (`npm run typecheck` names what is missing).
 */
import { admin as enAdmin } from "./en/admin.ts";
import { alerts as enAlerts } from "./en/alerts.ts";
import { business as enBusiness } from "./en/business.ts";
import { common as enCommon } from "./en/common.ts";
import { errors as enErrors } from "./en/errors.ts";
import { evidence as enEvidence } from "./en/evidence.ts";
import { inbox as enInbox } from "./en/inbox.ts";
import { names as enNames } from "./en/names.ts";
import { pages as enPages } from "./en/pages.ts";
import { paymentTexts as enPaymentTexts } from "./en/payment-texts.ts";
import { payments as enPayments } from "./en/payments.ts";
import { signIn as enSignIn } from "./en/sign-in.ts";
import { validation as enValidation } from "./en/validation.ts";
import { vocabulary as enVocabulary } from "./en/vocabulary.ts";
import { admin as huAdmin } from "./hu/admin.ts";
import { alerts as huAlerts } from "./hu/alerts.ts";
import { business as huBusiness } from "./hu/business.ts";
import { common as huCommon } from "./hu/common.ts";
import { errors as huErrors } from "./hu/errors.ts";
import { evidence as huEvidence } from "./hu/evidence.ts";
import { inbox as huInbox } from "./hu/inbox.ts";
import { names as huNames } from "./hu/names.ts";
import { pages as huPages } from "./hu/pages.ts";
import { paymentTexts as huPaymentTexts } from "./hu/payment-texts.ts";
import { payments as huPayments } from "./hu/payments.ts";
import { signIn as huSignIn } from "./hu/sign-in.ts";
import { validation as huValidation } from "./hu/validation.ts";
import { vocabulary as huVocabulary } from "./hu/vocabulary.ts";

const en = {
  ...enCommon,
  ...enErrors,
  ...enInbox,
  ...enBusiness,
  ...enPages,
  ...enPayments,
  ...enPaymentTexts,
  ...enAlerts,
  ...enVocabulary,
  ...enNames,
  ...enAdmin,
  ...enValidation,
  ...enEvidence,
  ...enSignIn,
};

export type MessageKey = keyof typeof en;

const hu: Record<MessageKey, string> = {
  ...huCommon,
  ...huErrors,
  ...huInbox,
  ...huBusiness,
  ...huPages,
  ...huPayments,
  ...huPaymentTexts,
  ...huAlerts,
  ...huVocabulary,
  ...huNames,
  ...huAdmin,
  ...huValidation,
  ...huEvidence,
  ...huSignIn,
};

export const CATALOGS: Record<"en" | "hu", Record<MessageKey, string>> = { en, hu };
