/**
 * Hungarian words the generated businesses are made of. Accented letters are deliberate: they
 * exercise accent-insensitive name search and UTF-8 handling in clients.
 */

/** Splits a comma-separated word list; keeps the lists compact and easy to extend. */
function words(text: string): readonly string[] {
  return text.split(",").map((word) => word.trim());
}

export const SURNAMES = words(
  "Nagy, Kovács, Tóth, Szabó, Horváth, Varga, Kiss, Molnár, Németh, Farkas, Balogh, Papp, " +
    "Takács, Juhász, Lakatos, Mészáros, Oláh, Simon, Rácz, Fekete, Szilágyi, Török, Fehér, " +
    "Balázs, Gál, Szűcs, Kocsis, Pintér, Fodor, Szalai, Sipos, Magyar, Lukács, Gulyás, Bíró, " +
    "Király, László, Katona, Jakab, Sándor, Boros, Fazekas, Kelemen, Antal, Somogyi, Orosz, " +
    "Fülöp, Veres, Vincze, Hegedűs, Deák, Bálint, Illés, Vass, Szőke, Fábián, Vörös, Lengyel, " +
    "Bognár, Halász, Jónás, Kozma, Máté, Székely, Gáspár, Pásztor, Bakos, Dudás, Orbán, Hegyi, " +
    "Virág, Barna, Novák, Soós, Nemes, Pataki, Győri, Szekeres, Csonka, Lőrincz",
);

export const MALE_GIVEN_NAMES = words(
  "János, István, László, József, Zoltán, Sándor, Ferenc, Gábor, Attila, Péter, Tamás, " +
    "Zsolt, Tibor, András, Csaba, Imre, Lajos, György, Balázs, Gyula, Mihály, Károly, Róbert, " +
    "Norbert, Dávid, Ádám, Bence, Dániel, Krisztián, Levente, Gergő, Áron, Miklós, Béla, " +
    "Győző, Ödön",
);

export const FEMALE_GIVEN_NAMES = words(
  "Mária, Erzsébet, Katalin, Ilona, Éva, Anna, Zsuzsanna, Margit, Judit, Ágnes, Andrea, " +
    "Erika, Krisztina, Mónika, Edit, Gabriella, Szilvia, Anita, Eszter, Tünde, Ildikó, Réka, " +
    "Tímea, Nóra, Dóra, Zsófia, Boglárka, Lilla, Enikő, Emőke",
);

/** Words that open invented company and association names. */
export const FANCY_WORDS = words(
  "Zöld, Arany, Ezüst, Kék, Duna, Tisza, Balaton, Mátra, Bükk, Alföld, Pannon, Hungária, " +
    "Tölgy, Napfény, Csillag, Kristály, Szivárvány, Turul, Főnix, Délibáb, Forrás, Kőhíd, " +
    "Várhegy, Lendület, Mérleg, Szőlőskert, Búzavirág, Gyöngy, Kikelet, Horizont, Északi, " +
    "Déli, Keleti, Nyugati, Új, Első, Jövő, Összefogás",
);

/** Activity word of a company name and a main activity (TEÁOR code and title) that fits it. */
export const ACTIVITIES = [
  ["Építőipari", "4120 Lakó- és nem lakó épület építése"],
  ["Kereskedelmi", "4690 Vegyes termékkörű nagykereskedelem"],
  ["Szolgáltató", "8299 M.n.s. egyéb kiegészítő üzleti szolgáltatás"],
  ["Ingatlanforgalmazó", "6820 Saját tulajdonú, bérelt ingatlan bérbeadása, üzemeltetése"],
  ["Informatikai", "6201 Számítógépes programozás"],
  ["Mezőgazdasági", "0111 Gabonaféle, hüvelyes növény, olajos mag termesztése"],
  ["Fuvarozó", "4941 Közúti áruszállítás"],
  ["Vendéglátó", "5610 Éttermi, mozgó vendéglátás"],
  ["Gépipari", "2562 Fémmegmunkálás"],
  ["Faipari", "1623 Épületasztalos-ipari termék gyártása"],
  ["Élelmiszeripari", "1071 Kenyér; friss pékáru gyártása"],
  ["Tanácsadó", "7022 Üzletviteli, egyéb vezetési tanácsadás"],
  ["Könyvelő", "6920 Számviteli, könyvvizsgálói, adószakértői tevékenység"],
  ["Egészségügyi", "8621 Általános járóbeteg-ellátás"],
  ["Villamosipari", "4321 Villanyszerelés"],
  ["Épületgépészeti", "4322 Víz-, gáz-, fűtés-, légkondicionáló-szerelés"],
  ["Kertészeti", "8130 Zöldterület-kezelés"],
  ["Szállítmányozási", "5229 Egyéb szállítást kiegészítő szolgáltatás"],
  ["Gépjárműjavító", "4520 Gépjárműjavítás, -karbantartás"],
  ["Szépségápolási", "9602 Fodrászat, szépségápolás"],
] as const;

/** Company forms: long name, abbreviation, and the form code inside the company register number. */
export const COMPANY_FORMS = [
  ["Korlátolt Felelősségű Társaság", "Kft.", "09"],
  ["Korlátolt Felelősségű Társaság", "Kft.", "09"],
  ["Korlátolt Felelősségű Társaság", "Kft.", "09"],
  ["Zártkörűen Működő Részvénytársaság", "Zrt.", "10"],
  ["Betéti Társaság", "Bt.", "06"],
  ["Betéti Társaság", "Bt.", "06"],
  ["Közkereseti Társaság", "Kkt.", "03"],
] as const;

export const CIVIL_FORMS = words(
  "Egyesület, Alapítvány, Sportegyesület, Kulturális Egyesület, Baráti Kör, " +
    "Horgászegyesület, Polgárőr Egyesület, Hagyományőrző Egyesület, Közhasznú Alapítvány",
);

export const CIVIL_ACTIVITIES = [
  "9312 Sportegyesületi tevékenység",
  "9499 M.n.s. egyéb közösségi, társadalmi tevékenység",
  "9004 Művészeti létesítmények működtetése",
  "8899 M.n.s. egyéb szociális ellátás bentlakás nélkül",
] as const;

/** Budget organisations: name after the town's adjective, and its main activity. */
export const BUDGET_KINDS = [
  ["Polgármesteri Hivatal", "8411 Általános közigazgatás"],
  ["Általános Iskola", "8520 Alapfokú oktatás"],
  ["Óvoda", "8510 Iskolai előkészítő oktatás"],
  ["Városi Könyvtár", "9101 Könyvtári, levéltári tevékenység"],
  ["Gimnázium", "8531 Általános középfokú oktatás"],
  ["Szociális Szolgáltató Központ", "8810 Idősek, fogyatékosok szociális ellátása bentlakás nélkül"],
] as const;

/**
 * Towns: name, adjective (used in names), postal code, tax county code, and the court code that
 * opens company register numbers there.
 */
export const TOWNS = [
  ["Budapest", "Budapesti", "1", "41", "01"],
  ["Budapest", "Budapesti", "1", "42", "01"],
  ["Budapest", "Budapesti", "1", "43", "01"],
  ["Budapest", "Budapesti", "1", "44", "01"],
  ["Debrecen", "Debreceni", "4024", "09", "09"],
  ["Szeged", "Szegedi", "6720", "06", "06"],
  ["Miskolc", "Miskolci", "3525", "05", "05"],
  ["Pécs", "Pécsi", "7621", "02", "02"],
  ["Győr", "Győri", "9021", "08", "08"],
  ["Nyíregyháza", "Nyíregyházi", "4400", "15", "15"],
  ["Kecskemét", "Kecskeméti", "6000", "03", "03"],
  ["Székesfehérvár", "Székesfehérvári", "8000", "07", "07"],
  ["Szombathely", "Szombathelyi", "9700", "18", "18"],
  ["Szolnok", "Szolnoki", "5000", "16", "16"],
  ["Tatabánya", "Tatabányai", "2800", "11", "11"],
  ["Kaposvár", "Kaposvári", "7400", "14", "14"],
  ["Érd", "Érdi", "2030", "13", "13"],
  ["Veszprém", "Veszprémi", "8200", "19", "19"],
  ["Békéscsaba", "Békéscsabai", "5600", "04", "04"],
  ["Zalaegerszeg", "Zalaegerszegi", "8900", "20", "20"],
  ["Sopron", "Soproni", "9400", "08", "08"],
  ["Eger", "Egri", "3300", "10", "10"],
  ["Vác", "Váci", "2600", "13", "13"],
  ["Gödöllő", "Gödöllői", "2100", "13", "13"],
  ["Szekszárd", "Szekszárdi", "7100", "17", "17"],
  ["Salgótarján", "Salgótarjáni", "3100", "12", "12"],
  ["Gyöngyös", "Gyöngyösi", "3200", "10", "10"],
  ["Siófok", "Siófoki", "8600", "14", "14"],
  ["Esztergom", "Esztergomi", "2500", "11", "11"],
  ["Keszthely", "Keszthelyi", "8360", "20", "20"],
] as const;

export const STREETS = words(
  "Fő utca, Petőfi Sándor utca, Kossuth Lajos utca, Rákóczi út, Ady Endre utca, " +
    "Széchenyi tér, Dózsa György út, Arany János utca, Béke utca, Bajcsy-Zsilinszky út, " +
    "Jókai Mór utca, Vörösmarty utca, Kölcsey Ferenc utca, Deák Ferenc tér, " +
    "Hunyadi János utca, Szent István körút, Váci út, Andrássy út, Táncsics Mihály utca, " +
    "Bartók Béla út, Erkel Ferenc utca, Liszt Ferenc utca, Kazinczy utca, " +
    "Móricz Zsigmond körtér, Szőlő utca",
);

/** First three digits of a bank account: the bank's code. */
export const BANK_CODES = ["117", "104", "107", "120", "116", "109", "101", "108", "118", "126"] as const;
