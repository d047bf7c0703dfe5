/** A parancssor és a konzol közös ellenőrzései magyarul (lásd en/validation.ts). */
import type { validation as en } from "../en/validation.ts";

export const validation = {
  "search.badRegNumber":
    "a(z) „{raw}” cégjegyzékszám egyik formának sem felel meg: {shapes} (x, y, z számjegyek)",
  "search.shortName": "a(z) „{raw}” név túl rövid: legalább {min} karaktert adjon meg",
  "search.badAccount":
    "a(z) „{raw}” bankszámlaszám formája xxxxxxxx-xxxxxxxx-xxxxxxxx vagy ennek első 17 karaktere, xxxxxxxx-xxxxxxxx (x számjegy)",
  "names.hidden": "vezérlő- vagy láthatatlan karaktert tartalmaz ({character})",
  "names.empty": "üres",
  "names.blanks": "előtte vagy utána szóköz áll",
  "names.tooLong": "hosszabb {max} karakternél",
  "names.otherDigits": "0–9-től eltérő számjegyeket tartalmaz",
  "names.taxIdShape": "se nem adótörzsszám (8 számjegy), se nem adószám (xxxxxxxx-y-zz)",
  "names.foreignTaxId": "egy másik uniós tagállam ({country}) közösségi adószáma, nem magyar adószám",
  "resolve.notFound": "a(z) {regNumber} cégjegyzékszám nem szerepel a cégnyilvántartásban",
  "resolve.budgetOrg":
    "a(z) {regNumber} cégjegyzékszám költségvetési szervé, ezeket a figyelőszolgáltatás nem követi",
  "resolve.noTaxNumber":
    "a cégnyilvántartás nem adott használható adószámot a(z) {regNumber} cégjegyzékszámhoz",
  "resolve.several":
    "a(z) {regNumber} cégjegyzékszám több vállalkozásra is illik ({taxIds}): adja meg inkább az adószámot",
  "resolve.quota":
    "az e havi {limit, plural, other {# keresésből}} egy sem maradt: adja meg inkább az adószámot",
  "resolve.failed": "a(z) {regNumber} keresése nem sikerült: {why}",
  "rule.emptyName": "Név: adjon nevet a szabálynak",
  "rule.longName": "Név: legfeljebb {max} karakter",
  "rule.badChannel": "Csatorna: a(z) „{channel}” helyett ezek egyike kell: {allowed}",
  "rule.blankScope": "A listák és rovatok nem lehetnek üresek",
  "rule.targetNotUrl": "Cél: a(z) „{target}” nem webcím (a webhooknak http:// vagy https:// cím kell)",
  "rule.targetNotHttp": "Cél: a(z) „{target}” csak http:// vagy https:// cím lehet",
  "rule.targetNotEmail":
    "Cél: {addressesCount, plural, one {nem e-mail-cím} other {nem e-mail-címek}}: {addresses}",
  "rule.privateTarget":
    "Cél: a(z) „{target}” loopback, link-local, privát vagy multicast cím; a riasztások céljai csak külső címek lehetnek, hacsak nem {setting}=true",
  "rule.targetNotChannel": "Cél: a(z) „{target}” csak 1–63 bájtos Postgres NOTIFY csatornanév lehet",
  "rule.unknownList":
    "{lists}: nincs ilyen lista sem a cégnyilvántartásban (kulcs vagy név szerint), sem a kívánt listák között (ismertek: {knownGiven, select, yes {{known}{more, plural, =0 {} other { és még #}}} other {még egy sem}})",
  "rule.unknownListHint":
    "{lists}: nincs ilyen lista sem a cégnyilvántartásban (kulcs vagy név szerint), sem a kívánt listák között (ismertek: {knownGiven, select, yes {{known}{more, plural, =0 {} other { és még #}}} other {még egy sem}}); a cégnyilvántartás listáit nem sikerült beolvasni ({why}): ha a cégnyilvántartás elérhető, és egy szinkronizálás beolvasta a listáit, vegye fel újra a szabályt",
  "rule.listsUnread":
    "a cégnyilvántartás listáit nem sikerült beolvasni ({why}): ha a cégnyilvántartás elérhető, és egy szinkronizálás beolvasta a listáit, vegye fel újra a szabályt",
  "rule.unseenHeading":
    "{headings}: egyetlen rögzített változás sem említette ezt a rovatot, és nem tudunk róla, hogy a cégnyilvántartás küldené (ezeket küldi: {knownHeadings}); ellenőrizze az írásmódot, vagy jelölje be: „a nyilvántartás által később bevezethető rovatkulcs”",
  "rule.notHeading":
    "{names}: nem rovatnév és nem is rovatkulcs; a cégnyilvántartás ezeket a rovatokat küldi: {knownHeadings}. A nyilvántartás által később bevezethető rovatot a kulcsával adja meg (kisbetűk, számjegyek és _, például founded_at), és jelölje be: „a nyilvántartás által később bevezethető rovatkulcs”",
  "rule.noSuchRule": "nincs „{name}” nevű riasztási szabály",
  "rule.exists": "már van „{name}” nevű riasztási szabály",
  "rule.noWebhookSecret": "a REGWATCH_WEBHOOK_SECRET nincs beállítva; a webhook-üzenetek addig várnak",
  "rule.noSmtp": "e-mail küldéséhez a REGWATCH_SMTP_URL és a REGWATCH_MAIL_FROM kell",
  "guard.maxRemovals":
    "a terv {removals, plural, other {# tételt}} töröl{deleted, plural, =0 {} other { (ebből #-t {lists, plural, other {# elhagyott lista}} törlésével)}}, többet, mint amennyit egy futás kérés nélkül töröl ({max}); ellenőrizze a kívánt tételeket: az alkalmazásához a reconcile --max-removals kapcsolója kell",
  "plan.duplicateRemote":
    "a(z) „{list}” lista {times} példányban van meg a nyilvántartásban; a legrégebbit ({used}) tartjuk szinkronban, {left} {leftCount, plural, one {érintetlen marad} other {érintetlenek maradnak}}",
  "guard.emptied":
    "a terv a(z) „{list}” lista mind a(z) {count, plural, other {# tételét}} törli, és üresen hagyja: az alkalmazásához a reconcile --allow-empty kapcsolója kell (vagy a kívánt listán a prune = false megtartja őket)",
} as const satisfies Record<keyof typeof en, string>;
