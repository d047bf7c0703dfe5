/** Amit egy kifizetés-ellenőrzés egy sorról mond, magyarul (lásd en/payment-texts.ts). */
import type { paymentTexts as en } from "../en/payment-texts.ts";

const CONFIRM =
  "erősítse meg a számlaszámot a szállítóval telefonon, egy már meglévő számon hívva őt, ne a számláról vagy egy új számlaszámot bejelentő levélből vett számon";

export const paymentTexts = {
  "taxid.format": "a(z) „{value}” adószámnak pontosan 8 számjegyből kell állnia",
  "taxid.checkDigit": "a(z) „{value}” adószám ellenőrző számjegye hibás ({expected} lenne a helyes)",
  "taxid.foreign":
    "a(z) „{value}” egy másik uniós tagállam ({country}) közösségi adószáma, nem magyar adószám",
  "account.firstGroup":
    "a(z) „{raw}” bankszámlaszám első csoportjának (bank és fiók) ellenőrző számjegye hibás",
  "account.accountPart": "a(z) „{raw}” bankszámlaszám számlarészének ellenőrző számjegye hibás",
  "account.foreignIban": "a(z) „{raw}” bankszámlaszám külföldi IBAN; csak magyar számlákat ellenőrzünk",
  "account.ibanShape": "a(z) „{raw}” IBAN formája: HU, két ellenőrző számjegy és 24 számjegy",
  "account.ibanCheck": "a(z) „{raw}” IBAN ellenőrző számjegyei hibásak (mod 97)",
  "account.shape":
    "a(z) „{raw}” bankszámlaszámnak 16 vagy 24 számjegyből kell állnia (nyolcas csoportokban, kötőjel nélkül is) vagy magyar IBAN-nak kell lennie",

  "pay.detail.holdersSeveral":
    "a fájl nem ad adószámot, és a számla több vállalkozás nevén is be van jelentve: {holders}",
  "pay.detail.holdersFormer":
    "a fájl nem ad adószámot, és most egyetlen vállalkozásé sem a számla (korábban ezé volt: {holders})",
  "pay.detail.holderUnknown":
    "a fájl nem ad adószámot, és a regwatch egyetlen forrása (keresési rekordok, profilok, változásértékek) sem tudja, kié a számla",
  "pay.detail.formerHolder": "a fájl nem ad adószámot; a számla korábban ezé volt: {holder}",
  "pay.detail.foundByAccount": "a kedvezményezettet a számlája alapján találtuk meg: {holder}",
  "pay.detail.statusUnread":
    "a vállalkozás állapota nincs ellenőrizve: {since} dátummal változott, és a regwatch nem tudta beolvasni a változást ({why}){status, select, none {} other {; a korábban ismert állapot ({statusWord}) már nem feltétlenül érvényes}}",
  "pay.detail.ceased": "a cégnyilvántartás szerint a vállalkozás megszűnt",
  "pay.detail.suspended": "a cégnyilvántartás szerint a vállalkozás tevékenysége szünetel",
  "pay.detail.ceasedOn":
    "a cégnyilvántartás szerint a vállalkozás megszűnt (forrás: {source, select, change_file {változásfájl} search {cégkeresés} other {cégadatlap}}, {day})",
  "pay.detail.suspendedOn":
    "a cégnyilvántartás szerint a vállalkozás tevékenysége szünetel (forrás: {source, select, change_file {változásfájl} search {cégkeresés} other {cégadatlap}}, {day})",
  "pay.detail.removed":
    "a vállalkozás törölte ezt a számlát{dayGiven, select, yes { ({day})} other {}}: ne fizessen rá; erősíttesse meg az új számlát{accountsGiven, select, yes {; jelenleg bejelentett számlái: {accounts}} other {}}",
  "pay.detail.registeredTo": "a számla ennek a vállalkozásnak a nevén van bejelentve: {holders}",
  "pay.detail.formerlyOwn": "a számla korábban ennek a vállalkozásnak a nevén volt, de már nincs",
  "pay.detail.noAccounts": "a cégnyilvántartás nem mutat bankszámlát ennél a vállalkozásnál",
  "pay.detail.registeredAccounts": "a vállalkozás bejelentett számlái: {accounts}",
  "pay.detail.kindListsNoAccounts":
    "a cégnyilvántartás az ilyen vállalkozásoknál (egyéni vállalkozó és hasonlók) nem sorol fel bankszámlát",
  "pay.detail.nameNotCompared":
    "a nevet nem lehetett összevetni: a cégnyilvántartás nem ad nevet a vállalkozásnak",
  "pay.detail.nameUnread":
    "a fájl „{name}” néven nevezi a kedvezményezettet, ami egyik ismert neve sem a(z) {taxId} adószámú vállalkozásnak ({names}); de a neve {since} dátummal változott, és a regwatch nem tudta beolvasni a változást ({why}), így a fájlban szereplő lehet az új neve",
  "pay.detail.nameMismatch":
    "a fájl „{name}” néven nevezi a kedvezményezettet; a(z) {taxId} adószámú vállalkozás nevei a cégnyilvántartásban: {names}",
  "pay.detail.verified": "megerősítette: {by}, {day}{noteGiven, select, yes { ({note})} other {}}",
  "pay.detail.verifiedBefore":
    "megerősítette: {by}, {day}{noteGiven, select, yes { ({note})} other {}}, a(z) {change} dátumú változás előtt",
  "pay.detail.added":
    "a számlát {day} dátummal jelentették be{source, select, search { (az aznap beolvasott keresési rekord az első, amely felsorolja; a vállalkozás korábbi rekordja nem)} baseline { (az aznap beolvasott keresési rekord az első, amely felsorolja; a vállalkozás korábbi rekordja nem)} profile { (a vállalkozás aznapi profilja az első, amely felsorolja; a korábbi rekordja nem)} other {}}, a(z) {holdDays} napos visszatartási időn belül",
  "pay.detail.unverifiedChange":
    "a bankszámlák {day} dátumú változása nincs ellenőrizve: {why}{hold, select, within { (a(z) {holdDays} napos visszatartási időn belül)} other {; azóta sem beolvasott keresési rekord, sem későbbi változás nem mondja meg, mely számlák érvényesek}}",
  "pay.detail.unconfirmed":
    "a regwatch egyetlen forrása (keresési rekordok, profilok, változásértékek) sem mutatta soha ezt a számlát: semmi sem erősíti meg, hogy a kedvezményezetté",
  "pay.detail.unconfirmedAccepted":
    "figyelem: a regwatch egyetlen forrása (keresési rekordok, profilok, változásértékek) sem mutatta soha ezt a számlát: semmi sem erősíti meg, hogy a kedvezményezetté; azért ment át, mert a REGWATCH_PAYMENT_ACCEPT_UNCONFIRMED be van állítva",
  "pay.detail.unknownBusiness": "nincs rekord a(z) {taxId} adószámról",
  "pay.detail.notWatched": "egyetlen figyelőlistán sincs rajta: a számlája változása észrevétlen maradna",
  "pay.detail.amountCannotPay": "a(z) „{written}” összeg nem fizethető ki: {problem}",
  "pay.detail.amountEmpty": "az összeg cellája üres",
  "pay.detail.amountUnreadable": "a(z) „{written}” összeg nem olvasható",
  "pay.detail.amountZero": "a(z) „{written}” összeg nulla",
  "pay.detail.amountNegative": "a(z) „{written}” összeg negatív",
  "pay.detail.notCheckedOnline":
    "online nincs ellenőrizve: {cause}{staleGiven, select, yes { ({stale})} other {}}",
  "pay.stale.noRecord": "a vállalkozásról nincs tárolt keresési rekord",
  "pay.stale.old":
    "a legújabb rekordját {day} dátummal olvastuk be, több mint {days, plural, other {# napja}}",
  "pay.stale.accountsChange": "a bankszámlák {day} dátumú változása újabb a legújabb rekordjánál",
  "pay.stale.unread":
    "a(z) „{heading}” {day} dátumú változását nem sikerült beolvasni, és újabb a legújabb rekordjánál",
  "pay.online.quotaSpent": "a havi keresési keret elfogyott",
  "pay.online.searchFailed": "a keresés nem sikerült: {error}",
  "pay.detail.askedNoRecord":
    "online rákérdeztünk a(z) {value} cégjegyzékszámra, de a válaszban nincs rekord erről az adószámról{staleGiven, select, yes { ({stale})} other {}}",
  "pay.detail.searchFoundNone":
    "a cégnyilvántartás bankszámla-keresése (csak cégek) egyetlen vállalkozást sem talált, amelyé a számla",

  "step.invalid_tax_id":
    "Javítsa az adószámot a szállító törzsadataiból (ne a számláról), és ellenőrizze újra a köteget.",
  "step.invalid_account":
    "Javítsa a számlaszámot megbízható forrásból (ne csak a számláról), és ellenőrizze újra a köteget.",
  "step.business_ceased":
    "Ne fizessen: a vállalkozás megszűnt. Kérdezze meg a szállítót a már meglévő elérhetőségein, ki veszi át a számláit.",
  "step.status_unverified":
    "{online, select, yes {Ne fizessen, amíg az állapot nem ismert: az online ellenőrzés nem tudta beolvasni a vállalkozás mai rekordját; nyissa meg a vállalkozás oldalát és keresse ki, majd nyomja meg az „Újraellenőrzés” gombot, vagy kérdezze meg a szállítót a már meglévő elérhetőségein.} other {Ne fizessen, amíg az állapot nem ismert: nyomja meg az „Újraellenőrzés” gombot az „online” bejelölésével, ez beolvassa a vállalkozás mai rekordját.}}",
  "step.account_removed": `Erre a számlára ne fizessen: a vállalkozás törölte. Kérje el a szállítótól a mostani számláját, ${CONFIRM}, írja be a fájlba, és ellenőrizze újra.`,
  "step.name_unverified":
    "{online, select, yes {Ne fizessen, amíg a név nem ismert: az online ellenőrzés nem tudta beolvasni a vállalkozás mai rekordját; nyissa meg a vállalkozás oldalát és keresse ki, majd nyomja meg az „Újraellenőrzés” gombot.} other {Ne fizessen, amíg a név nem ismert: nyomja meg az „Újraellenőrzés” gombot az „online” bejelölésével, ez beolvassa a vállalkozás mai rekordját.}}",
  "step.account_unconfirmed": `Fizetés előtt ${CONFIRM}, majd rögzítse a sor „Számla megerősítve” gombjával. Ezt a számlát egyetlen forrás sem mutatta, így semmi más nem oldja fel.`,
  "step.business_suspended": `Ne fizessen, amíg a vállalkozás tevékenysége szünetel; ${CONFIRM}, és nyomja meg az „Újraellenőrzés” gombot az „online” bejelölésével, hogy beolvassa a mai állapotát.`,
  "step.account_not_registered": `Erre a számlára ne fizessen: ${CONFIRM}. Ha a szállító valóban bankot váltott, nyomja meg az „Újraellenőrzés” gombot az „online” bejelölésével, hogy beolvassa a mai rekordját.`,
  "step.account_recently_changed": `Fizetés előtt ${CONFIRM}, majd rögzítse a sor „Számla megerősítve” gombjával.{dayGiven, select, yes { Enélkül az ellenőrzés {day} dátumtól engedi át.} other {}}`,
  "step.account_change_unverified": `A cégnyilvántartás megváltoztatta a vállalkozás számláit, és a regwatch még nem ismeri az újakat (a következő ütemezett szinkronizálás letöltheti őket). Addig fizetés előtt ${CONFIRM}{dayGiven, select, yes {; az ellenőrzés {day} elteltéig visszatartja a kifizetést} other {}}, és rögzítse a sor „Számla megerősítve” gombjával.`,
  "step.unknown_account_holder":
    "{online, select, yes {Kérje el a kedvezményezett adószámát (egy már meglévő számon hívva, ne a számlán szereplőn), írja be a fájlba, és ellenőrizze újra.} other {Nyomja meg az „Újraellenőrzés” gombot az „online” bejelölésével, hogy a számlát kikeresse a cégnyilvántartásban (csak cégek), vagy kérje el a kedvezményezett adószámát egy már meglévő számon, és írja be a fájlba.}}",
  "step.name_mismatch":
    "Ne fizessen, amíg nem tudja, miért térnek el a nevek: lehet, hogy a számla az egyik céget nevezi meg, a bankszámla pedig egy másiké. Egyeztessen a szállítóval a már meglévő elérhetőségein; ha csak más írásmódról van szó, írja be a fájlba a cégnyilvántartásban szereplő nevet, és ellenőrizze újra.",
  "step.invalid_amount":
    "Javítsa az összeget a fájlban (pozitív szám, ahogy a számlán áll), és ellenőrizze újra a köteget.",
  "step.unknown_business":
    "{online, select, yes {A cégnyilvántartásban semmi sem egyezett: egyeztesse az adószámot és a számlát a szállítóval a már meglévő elérhetőségein.} other {Nyomja meg az „Újraellenőrzés” gombot az „online” bejelölésével, hogy a vállalkozást kikeresse a cégnyilvántartásban (kedvezményezettenként egy keresés), vagy egyeztesse az adószámot a szállítóval.}}",
  "step.not_watched":
    "Átmegy, de a számlája változása észrevétlen maradna: kérjen meg egy adminisztrátort, hogy vegye fel egy figyelőlistára (a Listák oldalon).",
} as const satisfies Record<keyof typeof en, string>;
