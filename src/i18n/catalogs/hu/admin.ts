/** A változásonkénti beérkezett lista, a szabályok, a felhasználók és a listatagok oldalai magyarul. */
import type { admin as en } from "../en/admin.ts";

export const admin = {
  "inboxMsg.title": "Beérkezett riasztások",
  "inboxMsg.countOpen":
    "{count, plural, one {{shown} változás nyitott riasztással} other {{shown} változás nyitott riasztásokkal}}",
  "inboxMsg.countNew": "{shown} új tegnap óta",
  "inboxMsg.countHigh": "{shown} magas súlyosságú",
  "inboxMsg.countBank": "{count, plural, other {{shown} bankszámla-változás}}",
  "inboxMsg.countMine": "{shown} hozzám rendelve",
  "inboxMsg.severityHigh": "Magas",
  "inboxMsg.severityNormal": "Normál",
  "inboxMsg.severityHighWhy":
    "Magas: bankszámlaszám, név vagy a működési állapot (megszűnt vagy szünetel) változott.",
  "inboxMsg.rowSummary":
    "{alerts, plural, one {# riasztás} other {# riasztás, egy minden illeszkedő szabályhoz}}",
  "inboxMsg.emptyNoRules":
    "A beérkezett lista azért üres, mert még nincs riasztási szabály: semmi, amit a szinkronizálás rögzít, nem vált ki riasztást. Adminisztrátor a Szabályok oldalon vehet fel egyet.",
  "inboxMsg.emptyNoRulesNotAdmin":
    "A beérkezett lista azért üres, mert még nincs riasztási szabály: semmi, amit a szinkronizálás rögzít, nem vált ki riasztást. Kérje meg az adminisztrátort, hogy vegyen fel egyet a Szabályok oldalon.",
  "inboxMsg.emptyAllPaused":
    "{count, plural, one {A beérkezett lista üres, és az egyetlen riasztási szabály szüneteltetve van: a szüneteltetett szabály nem vált ki riasztást. Adminisztrátor a Szabályok oldalon folytathatja.} other {A beérkezett lista üres, és mind a # riasztási szabály szüneteltetve van: a szüneteltetett szabályok nem váltanak ki riasztást. Adminisztrátor a Szabályok oldalon folytathatja őket.}}",
  "inboxMsg.emptyNothingNew":
    "Nincs teendője: a legutóbbi futás ({at}) óta egyetlen változás sem illeszkedett szabályra.",
  "inboxMsg.emptyNoRun":
    "Nincs teendője: még egyetlen szinkronizálás sem fejeződött be, így egyetlen változást sem vetettünk még össze a szabályokkal.",
  "inboxMsg.emptyFiltered": "Egyetlen változás sem felel meg ezeknek a szűrőknek.",
  "inboxMsg.doneAck":
    "Kész: {changes, plural, one {# változás} other {# változás}} {alerts, plural, one {# riasztását} other {# riasztását}} tudomásul vette; {alerts, plural, one {a riasztás előzményei rögzítik} other {minden riasztás előzményei rögzítik}}.",
  "inboxMsg.doneResolve":
    "Kész: {changes, plural, one {# változás} other {# változás}} {alerts, plural, one {# riasztását} other {# riasztását}} lezárta; {alerts, plural, one {a riasztás előzményei rögzítik} other {minden riasztás előzményei rögzítik}}.",
  "inboxMsg.doneSnooze":
    "Kész: {changes, plural, one {# változás} other {# változás}} {alerts, plural, one {# riasztását} other {# riasztását}} elhalasztotta eddig: {until}; {alerts, plural, one {a riasztás előzményei rögzítik} other {minden riasztás előzményei rögzítik}}.",
  "inboxMsg.doneComment":
    "Kész: megjegyzését {changes, plural, other {# változás}} {alerts, plural, other {# riasztásához}} hozzáadtuk.",
  "inboxMsg.doneAssign":
    "Kész: {changes, plural, one {# változás} other {# változás}} {alerts, plural, one {# riasztását} other {# riasztását}} {user} felhasználóhoz rendelte; {alerts, plural, one {a riasztás előzményei rögzítik} other {minden riasztás előzményei rögzítik}}.",
  "inboxMsg.doneUnassign":
    "Kész: {changes, plural, other {# változás}} {alerts, plural, other {# riasztása}} most senkihez sincs rendelve; {alerts, plural, one {a riasztás előzményei rögzítik} other {minden riasztás előzményei rögzítik}}.",
  "inboxMsg.doneNothing": "Nem változott semmi: a kiválasztott riasztások már ilyen állapotban voltak.",
  "inboxMsg.assigneeOtherAccount":
    "{user} nem kapott hozzáférést a(z) {account} fiókhoz, ezért a fiók riasztásai nem rendelhetők hozzá. Semmi sem változott.",
  "inboxMsg.unknownAssignee": "Nincs „{user}” nevű konzolfelhasználó, akihez riasztásokat lehetne rendelni.",
  "inboxMsg.nothingSelected": "Válasszon ki legalább egy változást.",
  "rulesMsg.title": "Riasztási szabályok",
  "rulesMsg.ruleTitle": "Riasztási szabály: {name}",
  "rulesMsg.intro":
    "A szabály megmondja, mely változások váltanak ki riasztást (listák, rovatok), és hová megy az üzenet. A szabály minden módosítását megőrizzük az előzményeiben.",
  "rulesMsg.readOnly":
    "A szabályokat megtekintheti; felvételükhöz és módosításukhoz adminisztrátori szerepkör kell.",
  "rulesMsg.none":
    "Még nincs riasztási szabály: vegyen fel egyet lent, és a következő szinkronizálás riasztást ad az általa lefedett változásokra.",
  "rulesMsg.allLists": "Minden lista",
  "rulesMsg.allHeadings": "Minden rovat",
  "rulesMsg.active": "Aktív",
  "rulesMsg.paused": "Szüneteltetve",
  "rulesMsg.doneAdded":
    "A(z) {name} szabályt felvettük; a következő szinkronizálás riasztást ad az általa lefedett változásokra.",
  "rulesMsg.doneEdited":
    "A(z) {name} szabályt módosítottuk; a korábban kiváltott riasztások változatlanok maradnak.",
  "rulesMsg.donePaused": "A(z) {name} szabály szüneteltetve: a folytatásáig nem vált ki riasztást.",
  "rulesMsg.doneResumed":
    "A(z) {name} szabály újra aktív; a szüneteltetés alatt rögzített változások nem váltanak ki riasztást.",
  "rulesMsg.doneRemoved":
    "A(z) {name} szabályt töröltük: több riasztást nem vált ki, a riasztásai és azok előzményei megmaradnak.",
  "rulesMsg.doneRemovedMessages":
    "A(z) {name} szabályt töröltük: több riasztást nem vált ki, {count, plural, one {egyetlen még el nem küldött üzenetét} other {# még el nem küldött üzenetét}} nem küldjük el, a riasztásai és azok előzményei megmaradnak.",
  "rulesMsg.alreadyPaused": "A(z) {name} szabály már szüneteltetve volt; nem változott semmi.",
  "rulesMsg.alreadyActive": "A(z) {name} szabály már aktív volt; nem változott semmi.",
  "rulesMsg.noteUnseen":
    "Egyetlen rögzített változás sem említette még ezt: {headings}; a szabály akkor jelez, amikor a cégnyilvántartás jelenti.",
  "rulesMsg.noteNewKey":
    "Nem tudunk róla, hogy a cégnyilvántartás küldene ilyen rovatot: {headings}; a szabály csak akkor jelez, ha a nyilvántartás valaha küld ilyen kulcsot.",
  "rulesMsg.noteConfig": "Megjegyzés: {what}.",
  "rulesMsg.noSuchRule": "Nincs „{name}” nevű riasztási szabály.",
  "rulesMsg.refused": "A szabályt nem mentettük:",
  "rulesMsg.confirmRemove": "Jelölje be a négyzetet annak megerősítéséhez, hogy a szabályt törölni kell.",
  "rulesMsg.unknownState": "A művelet csak szüneteltetés, folytatás vagy törlés lehet.",
  "usersMsg.title": "Felhasználók",
  "usersMsg.intro":
    "Akik bejelentkezhetnek ebbe a konzolba, és hogy mit tehetnek: az olvasók olvasnak, az ellenőrök a riasztásokkal is dolgoznak, az adminisztrátorok a szabályokat, listákat és felhasználókat is kezelik. Tárolt jelszót senki, adminisztrátor sem láthat.",
  "usersMsg.fleetIntro":
    "A felhasználó csak a neki adott fiókokat látja, mindegyikben ugyanazzal a szerepkörrel; fiókot a regwatch users grant|revoke NAME --account ACCOUNT paranccsal lehet adni és elvenni.",
  "usersMsg.added":
    "{name} felhasználót felvettük ({role}). A jelszavát lent egyszer mutatjuk meg: adja át neki most, később nem lehet újra megjeleníteni.",
  "usersMsg.reset":
    "{name} jelszavát újat adtunk, a munkamenetei véget értek. Az új jelszót lent egyszer mutatjuk meg: adja át neki most, később nem lehet újra megjeleníteni.",
  "usersMsg.passwordOnce": "{name} jelszava (csak most látható):",
  "usersMsg.doneRole": "{name} szerepköre most: {role}.",
  "usersMsg.doneRoleUnchanged": "{name} szerepköre már ez volt: {role}; nem változott semmi.",
  "usersMsg.doneRemoved":
    "{name} felhasználót töröltük, a munkamenetei véget értek; amit tett, a riasztások előzményeiben megmarad.",
  "usersMsg.lastAdmin":
    "Nem változott semmi: {name} az utolsó adminisztrátor, és a konzolnak szüksége van egyre. Előbb tegyen adminisztrátorrá egy másik felhasználót.",
  "usersMsg.scopeIntro":
    "Azok a felhasználók látszanak itt, akiknek minden fiókja az Öné is: őket kezelheti, és csak a saját fiókjait adhatja. Aki minden fiókot kapott, minden felhasználót kezel.",
  "usersMsg.notYourUser":
    "Nem változott semmi: {name} olyan fiókot is kapott, amely nem az Öné, és egy adminisztrátor csak azokat a felhasználókat kezeli, akiknek minden fiókja az övé is.",
  "usersMsg.notYourAccount":
    "Nem változott semmi: a(z) „{name}” fiókot Ön nem kapta meg, ezért nem is adhatja.",
  "usersMsg.noSuchUser": "Nincs „{name}” nevű felhasználó.",
  "usersMsg.external":
    "Nem változott semmi: {name} céges fiókkal jelentkezik be; a jelszavát a cég azonosítási szolgáltatója kezeli, új jelszót ott lehet beállítani.",
  "usersMsg.taken": "Már van „{name}” nevű felhasználó; inkább adjon neki új jelszót.",
  "usersMsg.badName":
    "A(z) „{name}” felhasználónév 1–64 karakter lehet: latin betű (ékezetes is, például kovács.éva), számjegy, „.”, „_”, „@” vagy „-”.",
  "usersMsg.badRole":
    "A szerepkör csak olvasó (reader), ellenőr (reviewer) vagy adminisztrátor (admin) lehet.",
  "usersMsg.unknownAccount": "A fiókfájlban nincs „{name}” nevű fiók.",
  "usersMsg.firstAdmin":
    "Még senki sem tud bejelentkezni: ennek a konzolnak nincsenek felhasználói. Az első adminisztrátort a szerveren, ahol a regwatch fut, az alábbi paranccsal hozza létre (a jelszót a standard bemenetről olvassa); utána jelentkezzen be itt.",
  "usersMsg.firstAdminCommand": "{command} users add NAME --role admin --password-stdin",
  "usersMsg.confirmRemove":
    "Jelölje be a négyzetet annak megerősítéséhez, hogy {name} felhasználót törölni kell.",
  "listMsg.membersTitle": "Lista: {name}",
  "listMsg.membersIntro":
    "A vállalkozások, amelyeket ennek a kívánt listának figyelnie kell. Egy vállalkozás felvétele vagy eltávolítása azt módosítja, amit a regwatch szeretne; az egyeztetés (a démoné, a parancssoré vagy a Listák oldal „Alkalmazás most” gombja) viszi át a cégnyilvántartásba.",
  "listMsg.noMembers": "Ezen a kívánt listán még nincs vállalkozás.",
  "listMsg.noList": "Nincs „{name}” nevű kívánt lista.",
  "listMsg.readOnly": "Vállalkozások felvételéhez és eltávolításához adminisztrátori szerepkör kell.",
  "listMsg.doneAdded":
    "A(z) {taxId} adószámot felvettük a(z) {list} listára; a következő egyeztetés felveszi a cégnyilvántartás listájára.",
  "listMsg.doneAddedNewList":
    "A(z) {taxId} adószámot felvettük az új kívánt listára ({list}); a következő egyeztetés létrehozza a listát (vagy átveszi egy ilyen nevű távoli lista tételeit), és felveszi rá.",
  "listMsg.doneAlready": "A(z) {taxId} már rajta volt a(z) {list} listán; nem változott semmi.",
  "listMsg.doneRemoved":
    "A(z) {taxId} adószámot levettük a(z) {list} listáról; a következő egyeztetés leveszi a cégnyilvántartás listájáról is, ha a lista törli a fölösleges tételeket.",
  "listMsg.doneNotThere": "A(z) {taxId} nem volt rajta a(z) {list} listán; nem változott semmi.",
  "listMsg.giveOne": "Adószámot vagy cégjegyzékszámot adjon meg, ne mindkettőt.",
  "listMsg.badListName": "A(z) „{name}” listanév hibás: {problem}.",
  "listMsg.badTaxId": "A(z) „{value}” adószám hibás: {problem}.",
  "listMsg.noSearch":
    "A cégjegyzékszámot a cégnyilvántartás keresőjében keressük meg, amely ehhez a konzolhoz nincs beállítva (REGWATCH_SEARCH_URL és a kulcsa); adja meg inkább az adószámot.",
  "listMsg.applyTitle": "Alkalmazás most",
  "listMsg.applyIntro":
    "Az egyeztetés rendesen a démonból vagy a parancssorból fut. Az „Alkalmazás most” a fenti tervet azonnal elküldi a cégnyilvántartásnak, egyetlen rögzített futásként, a futási zár alatt.",
  "listMsg.applyConfirm": "Elolvastam a fenti tervet, és szeretném most elküldeni a cégnyilvántartásnak.",
  "listMsg.applyNeedsConfirm":
    "Az alkalmazás előtt jelölje be a négyzetet a terv megerősítéséhez; nem küldtünk semmit.",
  "listMsg.applyStale":
    "A terv megváltozott, amióta ez az oldal megjelent (valaki módosított egy listát, vagy egy futás beolvasta a cégnyilvántartást): nem küldtünk semmit. Olvassa el az új tervet, és erősítse meg újra.",
  "listMsg.applyLocked":
    "Most egy másik futás tartja a futási zárat (szinkronizálás, egyeztetés vagy a démon munkája): nem küldtünk semmit. Próbálja újra, ha befejeződött; a Futások oldal mutatja.",
  "listMsg.applyNotConfigured":
    "Ez a konzol nem éri el a cégnyilvántartás figyelőfelületét (a REGWATCH_WATCH_URL és a kulcsa nincs beállítva): az egyeztetés ott fut, ahol ezek be vannak állítva.",
  "listMsg.applyDone": "A(z) {run}. egyeztetési futás befejeződött: {status}.",
  "listMsg.nothingToApply":
    "A listák megegyeznek azzal, amit a regwatch legutóbb beolvasott: nincs mit alkalmazni.",
  "usersMsg.doneLanguage": "{name} mostantól a most választott nyelven látja a konzolt.",
  "usersAdmin.col.actions": "Műveletek",
  "usersAdmin.roleOf": "{name} szerepköre",
  "usersAdmin.languageOf": "{name} nyelve",
  "usersAdmin.ofUser": "({name})",
  "usersAdmin.changeRole": "Szerepkör módosítása",
  "usersAdmin.changeLanguage": "Nyelv módosítása",
  "usersAdmin.resetPassword": "Új jelszó",
  "usersAdmin.confirmRemove": "igen, {name} törlése",
  "usersAdmin.remove": "Törlés",
  "usersAdmin.addTitle": "Felhasználó felvétele",
  "usersAdmin.nameRule":
    "Latin betűk, ékezetesek is (kovács.éva), számjegyek, „.”, „_”, „@” és „-”; legfeljebb 64 karakter.",
  "usersAdmin.addHint": "A felvétel után generálunk egy jelszót, és egyszer megmutatjuk.",
  "usersAdmin.someAccounts": "{names} és még {more}",
  "usersAdmin.allAccounts": "az összes fiók, amelyet Ön kapott ({count})",
  "usersAdmin.accountNames": "Adandó fiókok",
  "usersAdmin.accountNamesRule":
    "Írja vagy másolja be a fiókok nevét vesszővel, szóközzel vagy sortöréssel elválasztva; a fiókváltó keresője megtalálja a nevet, amelyre nem emlékszik.",
  "usersAdmin.add": "Felhasználó felvétele",
  "rulesPage.col.name": "Név",
  "rulesPage.col.state": "Állapot",
  "rulesPage.col.channel": "Csatorna",
  "rulesPage.col.target": "Cím",
  "rulesPage.col.lists": "Listák",
  "rulesPage.col.headings": "Rovatok",
  "rulesPage.col.digest": "Összesítő",
  "rulesPage.col.added": "Felvéve",
  "rulesPage.col.when": "Mikor",
  "rulesPage.col.who": "Ki",
  "rulesPage.col.what": "Mi",
  "rulesPage.col.why": "Miért",
  "rulesPage.yes": "igen",
  "rulesPage.no": "nem",
  "rulesPage.pause": "Szüneteltetés",
  "rulesPage.resume": "Folytatás",
  "rulesPage.editOrRemove": "Módosítás vagy törlés",
  "rulesPage.addTitle": "Szabály felvétele",
  "rulesPage.add": "Szabály felvétele",
  "rulesPage.channelTo": "{channel}, címzett: {target}",
  "rulesPage.editTitle": "Módosítás",
  "rulesPage.save": "Szabály mentése",
  "rulesPage.stateTitle": "Szüneteltetés, folytatás vagy törlés",
  "rulesPage.why": "Indoklás (a szabály előzményeiben megmarad)",
  "rulesPage.confirmRemove": "igen, a szabály törlése (a riasztásai és azok előzményei megmaradnak)",
  "rulesPage.history": "Előzmények",
  "rulesPage.targetLabel": "Cím (webhook URL, vesszővel elválasztott e-mail-címek vagy NOTIFY csatorna)",
  "rulesPage.listsLegend": "Listák (ha egy sincs bejelölve: minden lista)",
  "rulesPage.noLists": "Még nem ismerünk listát.",
  "rulesPage.headingsLegend": "Rovatok (ha egy sincs bejelölve: minden rovat)",
  "rulesPage.otherHeadings": "Egyéb rovatok név vagy kulcs szerint, vesszővel elválasztva",
  "rulesPage.newHeading":
    "a nyilvántartás által később bevezethető rovatkulcs (a kulcsát írja be): a szabály csak akkor jelez, ha a nyilvántartás valaha küld ilyen kulcsú rovatot",
  "rulesPage.digestLabel": "futásonként egy üzenet, amely minden riasztást felsorol (összesítő)",
  "listsAdmin.addTitle": "Vállalkozás felvétele egy kívánt listára",
  "listsAdmin.listLabel": "Lista (egy kívánt lista neve; új név új listát indít)",
  "listsAdmin.taxId": "Adószám",
  "listsAdmin.orRegNumber": "vagy cégjegyzékszám",
  "listsAdmin.note": "Megjegyzés (a tétellel együtt megőrizzük)",
  "listsAdmin.noteCol": "Megjegyzés",
  "listsAdmin.source": "Forrás",
  "listsAdmin.add": "Felvétel",
  "listsAdmin.addHere": "Vállalkozás felvétele",
  "listsAdmin.refusedTitle": "Nem változott semmi",
  "inboxPage.severity": "Súlyosság",
  "inboxPage.assignedToMe": "hozzám rendelve",
  "inboxPage.newSinceYesterday": "új tegnap óta",
  "inboxPage.action.assign": "hozzárendelés",
  "inboxPage.assignee": "felelős",
  "inboxPage.nobody": "senki",
  "inboxPage.col.severity": "Súlyosság",
  "inboxPage.col.rules": "Szabályok",
  "inboxPage.col.assigned": "Felelős",
  "inboxPage.selectChange": "a(z) {day} napi változás kijelölése ({count} riasztás)",
  "inboxPage.pager": "{page}. oldal, {count} változás",
  "inbox.problem.severity": "a súlyosság ezek egyike lehet: {allowed}; kapott érték: „{value}”",
  "inbox.problem.flag": "a(z) {name} értéke csak „{on}” lehet; kapott érték: „{value}”",
  "itemOutcome.already": "már szerepelt a nyilvántartás listáján (409)",
  "itemOutcome.alreadyGone": "már nem szerepelt a nyilvántartás listáján (404)",
  "itemOutcome.refused": "a nyilvántartás elutasította ({code})",
  "itemOutcome.failed": "a kérés a nyilvántartáshoz nem sikerült",
  "itemOutcome.reply": "A nyilvántartás válasza",
} as const satisfies Record<keyof typeof en, string>;
