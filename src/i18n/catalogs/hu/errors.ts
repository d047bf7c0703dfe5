/** Hibaoldalak, elutasítások és a bejelentkezés magyarul. */
import type { errors as en } from "../en/errors.ts";

export const errors = {
  "error.back": "Vissza a beérkezettekhez",
  "error.schemaBehind.title": "Az adatbázis sémája elavult",
  "error.failed.title": "Hiba történt",
  "error.failed.message": "Az oldal nem jeleníthető meg; az ok a konzol naplójában olvasható.",
  "error.refused.title": "A kérés elutasítva",
  "error.notFound.title": "Nincs ilyen oldal",
  "error.notFound.message": "A(z) {path} címen nincs oldal.",
  "error.noAccount.title": "Nincs fiók",
  "error.noAccount.message":
    "{user} még egyetlen fiókhoz sem kapott hozzáférést. Egy adminisztrátor így adhat: `regwatch users grant {user} --account NÉV`.",
  "error.otherAccount.title": "Másik fiók",
  "error.otherAccount.shownFor":
    "Ez az űrlap a(z) {given} fiókhoz készült, de most a(z) {current} fiókot nézi (egy másik lapon vagy ablakban váltott). Semmi sem változott. Váltson vissza az űrlap fiókjára, és küldje el újra egy frissen betöltött oldalról.",
  "error.otherAccount.unnamed":
    "Ez az űrlap nem jelezte, melyik fiókhoz készült, és most a(z) {current} fiókot nézi. Semmi sem változott. Váltson vissza az űrlap fiókjára, és küldje el újra egy frissen betöltött oldalról.",
  "error.csrf.title": "Az űrlap lejárt",
  "error.csrf.message":
    "Az űrlap nem tartalmazott érvényes _csrf tokent (régi oldal, vagy egy másik webhely űrlapja): semmi sem változott. Lépjen vissza, töltse újra az oldalt, és próbálja újra.",
  "error.csrf.login":
    "A bejelentkezési űrlap nem tartalmazott érvényes _csrf tokent. Töltse újra a /login oldalt, és próbálja újra.",
  "error.csrf.upload":
    "A feltöltés nem tartalmazta a munkamenet _csrf tokenjét: semmit sem ellenőriztünk. Töltse újra a /payments oldalt, és küldje el újra.",
  "error.role.title": "Nem engedélyezett",
  "error.role.message": "Ehhez {role} szerepkör kell; Ön {user} néven van bejelentkezve ({userRole}).",
  "error.accountNotGiven": "{user} nem kapott hozzáférést a(z) „{account}” fiókhoz; semmi sem változott.",
  "error.nothingChanged.title": "Semmi sem változott",
  "error.noAlert": "Nincs {id} számú riasztás.",
  "error.language.title": "Ismeretlen nyelv",
  "error.language.message": "A(z) „{locale}” nem a konzol nyelve: válassza az en vagy a hu értéket.",

  "login.title": "Bejelentkezés",
  "login.heading": "Bejelentkezés a regwatch-ba",
  "login.user": "Felhasználónév",
  "login.password": "Jelszó",
  "login.submit": "Bejelentkezés",
  "login.missing": "Adja meg a felhasználónevet és a jelszót.",
  "login.tooMany":
    "Túl sok sikertelen bejelentkezési próbálkozás: várjon {minutes, plural, one {egy percet} other {# percet}}, majd próbálja újra.",
  "login.wrong": "Hibás felhasználónév vagy jelszó.",
} as const satisfies Record<keyof typeof en, string>;
