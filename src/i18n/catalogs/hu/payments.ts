/** A kifizetések oldalai magyarul. */
import type { payments as en } from "../en/payments.ts";

export const payments = {
  "payments.title": "Kifizetések",
  "payments.notChecked": "A köteget nem ellenőriztük",
  "payments.check": "Kifizetési köteg ellenőrzése",
  "payments.check.hint":
    "CSV-, szöveges vagy Excel- (.xlsx, első munkalap) export bankszámlaszám-oszloppal (fejléce lehet például „számlaszám”, „IBAN” vagy „bank_account”); az adószám, az összeg, a pénznem, a közlemény és a név nem kötelező. Az ellenőrzést az Ön nevével rögzítjük.",
  "payments.file": "Fájl",
  "payments.holdDays": "Visszatartási napok",
  "payments.encoding": "Karakterkódolás",
  "payments.encoding.detect": "felismerés",
  "payments.currency": "Pénznem",
  "payments.submit": "Ellenőrzés",
  "payments.readOnly":
    "Köteg ellenőrzéséhez ellenőr szerepkör kell; az eddig rögzített kötegeket megtekintheti.",
  "payments.recent": "Legutóbbi kötegek",
  "payments.none": "Még nincs rögzített köteg.",
  "payments.col.checked": "Ellenőrizve",
  "payments.col.by": "Ellenőrizte",
  "payments.col.file": "Fájl",
  "payments.col.rows": "Sorok",
  "payments.col.held": "Visszatartva",
  "payments.col.totals": "Végösszegek",
  "payments.source.web": "konzol",
  "payments.source.cli": "parancssor",
  "payments.rechecked": "újraellenőrzés",
  "payments.rechecked.title":
    "Egy korábbi köteg sorainak újabb ellenőrzése: a link az eredeti köteget nyitja meg",
  "payments.interrupted": "megszakadt: nem minden sort rögzítettünk",
  "payments.noCurrency": "{amount} (nincs pénznem)",

  "batch.title": "Kifizetési köteg: {name}",
  "batch.checked": "Ellenőrizve: {when} ({source})",
  "batch.checkedBy": "Ellenőrizve: {when}, ellenőrizte: {who} ({source})",
  "batch.layout.encoding": "kódolás: {value}",
  "batch.layout.tabs": "tabulátorral tagolt",
  "batch.layout.delimiter": "tagolás: „{value}”",
  "batch.layout.hold": "visszatartás: {days} nap",
  "batch.layout.checkedOn": "eredmények {day} napra",
  "batch.id": "köteg: {id}",
  "batch.verified":
    "A(z) {account} számla ellenőrzését rögzítettük: a számlára fizető köteg következő ellenőrzése feloldja az általa okozott visszatartást.",
  "batch.count.payments": "kifizetés",
  "batch.count.held": "visszatartva",
  "batch.col.currency": "Pénznem",
  "batch.col.total": "Végösszeg",
  "batch.col.rows": "Sorok",
  "batch.col.held": "Visszatartva",
  "batch.col.heldRows": "Visszatartott sorok",
  "batch.download": "Letöltés:",
  "export.payments.sheet": "utalások",
  "export.payments.line": "Sor",
  "export.payments.tax_id": "Adószám",
  "export.payments.name": "Kedvezményezett a fájlban",
  "export.payments.registry_name": "Név a nyilvántartásban",
  "export.payments.bank_account": "Bankszámlaszám",
  "export.payments.amount": "Összeg",
  "export.payments.currency": "Pénznem",
  "export.payments.reference": "Közlemény",
  "export.payments.verdict": "Eredmény",
  "export.payments.held": "Visszatartandó",
  "export.payments.detail": "Miért",
  "export.payments.next_step": "Teendő",
  "export.payments.verified_by": "Ellenőrizte",
  "export.payments.verified_on": "Ellenőrzés napja",
  "batch.showAll": "minden sor",
  "batch.showHeld": "csak a visszatartott sorok",
  "batch.col.line": "Sor",
  "batch.col.payee": "Kedvezményezett",
  "batch.col.account": "Számlaszám",
  "batch.col.amount": "Összeg",
  "batch.col.verdict": "Eredmény",
  "batch.col.why": "Miért, és mi a teendő",
  "batch.fileName": "a fájlban: {name}",
  "batch.next": "Teendő: {step}",
  "batch.verifiedBy": "ellenőrizte: {who}, {day}",
  "batch.note.placeholder": "hogyan erősítették meg a számlát",
  "batch.confirm": "Számla megerősítve",
  "batch.earlier": "← Korábbi sorok",
  "batch.later": "Későbbi sorok →",

  "payments.noBatch.title": "Nincs ilyen köteg",
  "payments.noBatch": "Nincs „{id}” azonosítójú rögzített kifizetési köteg.",
  "payments.notVerified.title": "Az ellenőrzést nem rögzítettük",
  "payments.problem.holdDays": "a visszatartási napok száma („{value}”) 0 és 3650 közötti egész szám legyen",
  "payments.problem.currency": "a pénznem („{value}”) hárombetűs kód legyen, például HUF vagy EUR",
  "payments.problem.noFile": "fájl: válassza ki az ellenőrizendő kifizetési köteg fájlját",
  "payments.problem.tooLarge": "a(z) „{name}” fájl nagyobb, mint amit a konzol elfogad (100 MB)",
  "payments.problem.inFile": "{name}: {message}",
  "payments.problem.atLine": "{name}, {line}. sor: {message}",
  "payments.busy.title": "A konzol most ellenőrzéssel foglalt",
  "payments.busy.message":
    "A konzol egyszerre legfeljebb {limit} kifizetési köteget ellenőriz, és éppen ennyi ellenőrzés fut. Semmit sem olvastunk be és semmit sem rögzítettünk: küldje el újra {seconds} másodperc múlva.",

  "payments.online":
    "Online (minden kedvezményezett aktuális adatait lekérdezi a cégnyilvántartásból; a havi keresési keretből fogy)",
  "batch.recheck": "Újraellenőrzés",
  "batch.recheck.online": "Online",
  "recheck.refusedTitle": "Az újraellenőrzés nem történt meg",
  "recheck.searchNotSet":
    "A cégnyilvántartás keresője ehhez a fiókhoz nincs beállítva (REGWATCH_SEARCH_URL és a kulcsa): ellenőrizze újra az „Online” bejelölése nélkül.",

  "batch.columns.title": "Beolvasott oszlopok",
  "batch.columns.header": "„{header}” oszlop",
  "batch.columns.quoted": "„{header}”",
  "batch.columns.ignored":
    "{count, plural, one {Nem beolvasott oszlop: {columns}} other {Nem beolvasott oszlopok (# db): {columns}}}",
  "batch.columns.noneIgnored": "A fájl minden oszlopát beolvastuk.",
  "batch.columns.chosen": "Az oszlopokat {who} választotta ki ({when}), ezek szerint olvastuk be a fájlt.",
  "batch.columns.offer":
    "Nem találtunk oszlopot a következőkhöz: {fields}. Ha a fájlban van ilyen oszlop, válassza ki, és ellenőrizze újra a fájlt:",

  "columns.title": "Melyik oszlopban mi van?",
  "columns.intro":
    "A(z) {file} fájl fejléce a regwatch számára ismeretlen. Adja meg, melyik oszlop melyik adatot tartalmazza; a választást megjegyezzük minden ilyen fejlécű fájlhoz.",
  "columns.needAccount":
    "Válassza ki a bankszámlaszámot tartalmazó oszlopot: ez az egyetlen adat, amely minden ellenőrzéshez kell.",
  "columns.sameTwice": "A(z) „{header}” oszlopot két adathoz is kiválasztotta: csak egyszer válassza ki.",
  "columns.notAColumn": "A(z) „{header}” nem oszlopa ennek a fájlnak.",
  "columns.heldGone":
    "A feltöltött fájlt már nem őrizzük (egy napig őrizzük, csak a feltöltő számára): töltse fel újra.",
  "columns.searchNotSet":
    "online: a cégnyilvántartás keresője ehhez a fiókhoz nincs beállítva (REGWATCH_SEARCH_URL és a kulcsa)",
  "columns.none": "(nincs)",
  "columns.submit": "Ellenőrzés ezekkel az oszlopokkal",
  "columns.field.bank_account": "Bankszámlaszám",
  "columns.field.tax_id": "Adószám",
  "columns.field.amount": "Összeg",
  "columns.field.name": "Kedvezményezett neve",
  "columns.field.currency": "Pénznem",
  "columns.field.reference": "Közlemény",

  "xlsx.notZip": "a fájl nem olvasható .xlsx munkafüzet (a zip-könyvtára nem olvasható)",
  "xlsx.tooBig":
    "a munkafüzet kicsomagolva nagyobb {max} MiB-nál, többet tartalmaz, mint egy kifizetési köteg: nem olvastuk be (mentse a munkalapot CSV-ként, vagy ossza fel)",
  "xlsx.tooMany": "a munkafüzet több mint {max} részből áll: nem olvastuk be",
  "xlsx.unsupported":
    "a munkafüzet olyan zip-funkciót használ, amelyet a regwatch nem olvas ({what}): mentse újra Excelből, vagy CSV-ként",
  "xlsx.compression":
    "a munkafüzet olyan zip-funkciót használ, amelyet a regwatch nem olvas ({method}. tömörítési módszer): mentse újra Excelből, vagy CSV-ként",
  "xlsx.longCell":
    "a(z) {row}. sorban van egy {max} karakternél hosszabb cella, hosszabb, mint amit egy kifizetés mezője elbír: a fájlt nem olvastuk tovább",
  "xlsx.tooManyStrings":
    "a munkafüzet több mint {max} megosztott szöveget vagy összesen több mint {chars} karakternyit tartalmaz, többet, mint egy kifizetési köteg: nem olvastuk be (mentse a munkalapot CSV-ként, vagy ossza fel)",
  "xlsx.noSheet": "a munkafüzetben nincs beolvasható munkalap",
  "xlsx.malformed":
    "a munkafüzet sérült: egy része nem olvasható ({detail}); mentse újra Excelből, vagy CSV-ként",
} as const satisfies Record<keyof typeof en, string>;
