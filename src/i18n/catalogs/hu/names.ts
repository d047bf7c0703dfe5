/** A vállalkozásoknak adott nevek, a fejléc keresője és a „Keresés a cégnyilvántartásban” magyarul. */
import type { names as en } from "../en/names.ts";

export const names = {
  "name.given.fromFile": "{name} (a(z) {file} fájlban megadott név)",
  "name.given.fromUser": "{name} ({user} által megadott név)",
  "name.given.earlier": "{name} (korábban megadott név; a forrását nem rögzítettük)",

  "registrySearch.cost":
    "Ez a keresés a havi keretből még hátralévő {remaining} keresés közül egyet használ fel (a havi keret: {limit}).",
  "registrySearch.spent": "A havi keresési keret ({limit}) elfogyott: nem küldtünk keresést.",
  "registrySearch.notConfigured":
    "A cégnyilvántartás keresője ehhez a fiókhoz nincs beállítva (REGWATCH_SEARCH_URL és a kulcsa): csak a regwatch által ismert nevek között keresünk.",
  "registrySearch.failed": "A keresés a cégnyilvántartásban nem sikerült: {why}",

  "find.title": "Vállalkozás keresése",
  "find.field": "Név, adószám vagy cégjegyzékszám",
  "find.submit": "Keresés",
  "find.empty": "Írjon be egy nevet (legalább 3 betűt), egy adószámot vagy egy cégjegyzékszámot.",
  "find.tooShort": "A(z) „{q}” túl rövid a név szerinti kereséshez: írjon be legalább 3 betűt.",
  "find.storedNone":
    "A regwatch által ismert vállalkozások egyikének neve vagy cégjegyzékszáma sem egyezik ezzel: „{q}”.",
  "find.storedSome": "A regwatch által ismert vállalkozások, amelyek illeszkednek erre: „{q}”:",
  "find.registryNone": "A cégnyilvántartás nem talált vállalkozást erre: „{q}”.",
  "find.registrySome": "A cégnyilvántartás válasza erre: „{q}” (későbbre megőrizve):",
  "find.askRegistry": "Keresés a cégnyilvántartásban",
  "find.readerCannot": "Ellenőr vagy adminisztrátor további találatokat kereshet a cégnyilvántartásban.",

  "lookup.heading": "Még nem kerestük a cégnyilvántartásban",
  "lookup.explain":
    "Erről a vállalkozásról még nem kérdeztük a cégnyilvántartást, így a saját nevét és adatait itt nem ismerjük. A cégnyilvántartásban cégjegyzékszám vagy név alapján lehet keresni, adószám alapján nem: adja meg azt, amelyiket ismeri.",
  "lookup.field": "Cégjegyzékszám vagy név",
  "lookup.button": "Keresés a cégnyilvántartásban",
  "lookup.readerNote": "Ellenőr vagy adminisztrátor megkeresheti ezt a vállalkozást a cégnyilvántartásban.",
  "lookup.missed":
    "A cégnyilvántartás „{value}” keresésre adott válaszában nincs {taxId} adószámú vállalkozás; a válasz {count} találatát megőriztük.",
  "lookup.badValue": "A(z) „{value}” se nem cégjegyzékszám, se nem legalább 3 betűs név.",
  "unnamed.title": "Név nélküli vállalkozások",
  "unnamed.none": "Minden figyelt vállalkozásnak megvan a cégnyilvántartásbeli neve.",
  "unnamed.summary":
    "{total} figyelt vállalkozásnak még nincs neve a cégnyilvántartásból; ezek közül {searchable, plural, =0 {egyik sem kereshető meg} other {# megkereshető}} azzal, amit a regwatch tud róla.",
  "unnamed.cost":
    "A keresésük {count} keresést használ fel a havi keretből még hátralévő {remaining} közül (a havi keret: {limit}), vállalkozásonként egyet.",
  "unnamed.costPart":
    "Egy lépésben a(z) {searchable} közül {count} vállalkozást keresünk meg: ez {count} keresés a havi keretből még hátralévő {remaining} közül (a havi keret: {limit}).",
  "unnamed.button": "{count} név megkeresése",
  "unnamed.readerNote":
    "Ellenőr vagy adminisztrátor megkeresheti ezeket a vállalkozásokat a cégnyilvántartásban.",
  "unnamed.clueless":
    "{count} vállalkozásnak nincs se cégjegyzékszáma, se fizetési fájlból ismert bankszámlája, se megadott neve: nyissa meg az oldalát, és írja be a cégjegyzékszámát vagy a nevét.",
  "unnamed.more": "Az első {shown} látszik a(z) {total} közül.",
  "unnamed.col.taxId": "Adószám",
  "unnamed.col.clue": "Keresés ez alapján",
  "unnamed.clue.regNumber": "cégjegyzékszám: {value}",
  "unnamed.clue.account": "bankszámla: {value}",
  "unnamed.clue.name": "megadott név: „{value}”",
  "unnamed.clue.none": "nincs mi alapján keresni",
  "unnamed.done.named":
    "{count, plural, =0 {Egy vállalkozás sem kapott nevet.} other {# vállalkozás kapta meg a nevét.}}",
  "unnamed.done.missed": "{count} vállalkozás nem volt a cégnyilvántartás válaszaiban.",
  "unnamed.done.leftQuota": "{count} vállalkozást nem kerestünk meg: elfogyott a havi keret.",
  "unnamed.done.leftFailed":
    "{count} vállalkozást nem kerestünk meg: a keresés a cégnyilvántartásban nem sikerült ({why}).",
  "unnamed.done.remaining": "Ebben a hónapban még {remaining} keresés maradt a(z) {limit} közül.",
  "unnamed.inboxLink": "Név nélküli vállalkozások: nevek megkeresése",
} as const satisfies Record<keyof typeof en, string>;
