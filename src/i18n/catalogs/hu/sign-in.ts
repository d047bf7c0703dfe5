/** Céges bejelentkezés (OpenID Connect): a gomb és minden elutasítás magyarul. */
import type { signIn as en } from "../en/sign-in.ts";

export const signIn = {
  "oidc.button": "Bejelentkezés céges fiókkal ({provider})",
  "oidc.or": "vagy helyi felhasználónévvel és jelszóval",
  "oidc.localOff": "Itt jelszóval nem lehet bejelentkezni: használja céges fiókját ({provider}).",
  "oidc.refused.title": "A céges bejelentkezés nem sikerült",
  "oidc.unreachable.title": "Az azonosítási szolgáltató nem érhető el",
  "oidc.unreachable.message":
    "A bejelentkezés nem indulhatott el: {reason}. Próbálja újra később, vagy forduljon a rendszergazdához.",
  "oidc.noPending":
    "Ezt a bejelentkezést nem ebben a böngészőben indították, már felhasználták, vagy lejárt (tíz perc után). Kezdje újra a bejelentkezési oldalról.",
  "oidc.providerError": "Az azonosítási szolgáltató nem jelentkeztette be: {error}.",
  "oidc.checkFailed":
    "Az azonosítási szolgáltató válasza nem felelt meg a konzol ellenőrzéseinek, ezért senki sem jelentkezett be: {reason}.",
  "oidc.noRole":
    "Ön ({name}) azonosította magát a(z) {provider} szolgáltatónál, de egyik csoportja vagy jogosultsága sem ad szerepkört a regwatch-ban. Kérje meg a rendszergazdát, hogy vegye fel egy olyan csoportba, amelyhez a konzol szerepkört rendel.",
  "oidc.noName":
    "Az azonosítási szolgáltató nem adott használható felhasználónevet ({claims}): a név 1–64 betűből, számjegyből és a . _ @ - jelekből állhat.",
  "oidc.nameTaken":
    "A(z) „{name}” felhasználónév egy másik konzolfelhasználóé, ezért nem jelentkeztettük be. Kérje meg a rendszergazdát, hogy nevezze át azt a felhasználót, vagy módosítsa a REGWATCH_OIDC_NAME_CLAIM beállítást.",
  "oidc.passwordOff.title": "A jelszavas bejelentkezés ki van kapcsolva",
  "oidc.passwordOff.message":
    "Ebbe a konzolba csak céges fiókkal ({provider}) lehet bejelentkezni. Használja a bejelentkezési oldal gombját.",
  "oidc.startAgain": "Vissza a bejelentkezési oldalra",
  "oidc.tooMany.title": "Túl sok megkezdett bejelentkezés",
  "oidc.tooMany.message":
    "Az Ön címéről az elmúlt percben túl sok céges bejelentkezést kezdtek meg: várjon {minutes, plural, one {egy percet} other {# percet}}, aztán próbálja újra.",
} as const satisfies Record<keyof typeof en, string>;
