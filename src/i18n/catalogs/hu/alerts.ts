/** A riasztó e-mailek és a webhookok `text` sorai magyarul (REGWATCH_LOCALE=hu). */
import type { alerts as en } from "../en/alerts.ts";

export const alerts = {
  "mail.test.webhookMessage": "Próbaüzenet a regwatch-tól: egyetlen vállalkozás sem változott.",
  "mail.test.webhookText": "[regwatch PRÓBA] {rule} szabály: {message}",
  "mail.test.text":
    "PRÓBAÜZENET a regwatch-tól a(z) „{rule}” szabályhoz. Egyetlen vállalkozás sem változott; ez a kézbesítés útját ellenőrzi.",
  "mail.test.subject": "[regwatch PRÓBA] {rule} szabály",
  "mail.business": "{name} ({taxId})",
  "mail.ambiguous":
    "{day} napján a(z) {heading} több értéke ismeretlen sorrendben: az új érték nem feltétlenül a mostani",
  "mail.changeLine": "{business}, {day}: {changes}",
  "mail.notParsed": "{heading}: megváltozott (az értékek még nincsenek feldolgozva)",
  "mail.notParsedCell": "megváltozott (az értékek még nincsenek feldolgozva)",
  "mail.webhook.one": "regwatch ({rule} szabály): {change}",
  "mail.webhook.aChange": "egy változás",
  "mail.webhook.digest": "regwatch ({rule} szabály): {count} változás",
  "mail.subject.digest": "[regwatch] {count} változás a(z) {rule} szabályhoz",
  "mail.subject.one": "[regwatch] {business} adatai változtak ({rule} szabály)",
  "mail.aBusiness": "egy vállalkozás",
  "mail.alertLine": "{id}. riasztás: {business}, a változás napja: {day}, listák: {lists}",
  "mail.htmlAlert": "{id}. riasztás: {business}",
  "mail.htmlChange": "A változás napja: {day}; listák: {lists}",
  "mail.htmlRule": "Szabály: {rule}",
  "mail.col.heading": "adatrovat",
  "mail.col.old": "korábban",
  "mail.col.new": "most",
  "mail.nameHint":
    "(ismeretlen név): még egyetlen keresési találat vagy változás sem nevezte meg a vállalkozást; a `regwatch lookup` nyilvántartási szám, név vagy bankszámla alapján megkeresi, és eltárolja a nevet a következő üzenetekhez",
  "deliveryError.smtpAnswered": "Az SMTP-kiszolgáló visszautasította a levelet ({code}).",
  "deliveryError.smtpUnreachable": "Az SMTP-kiszolgáló nem volt elérhető.",
  "deliveryError.timedOut": "A küldés nem fejeződött be időben.",
  "deliveryError.webhookAnswered": "A webhook kiszolgálója hibával válaszolt ({code}).",
  "deliveryError.webhookSilent": "A webhook kiszolgálója nem válaszolt.",
  "deliveryError.other": "A küldés nem sikerült.",
  "deliveryError.reply": "A kiszolgáló válasza",
  "deliveryError.internal": "A küldés a regwatch-on belül hiúsult meg, nem a fogadónál.",
  "deliveryError.recorded": "A hiba, ahogy rögzítettük",
} as const satisfies Record<keyof typeof en, string>;
