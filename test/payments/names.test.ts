/**
 * The payee name of a payment file against the registry's names: same words after case, accents,
 * punctuation and the legal form are set aside, or the file shortening the registry's name (two
 * words at least, in order). Real Hungarian names and their usual spellings in bank exports.
 */
import { describe, expect, it } from "vitest";
import { findMatchingName, normaliseName } from "../../src/payments/names.ts";

describe("normaliseName", () => {
  it.each([
    ["Kővári Ügyvédi Iroda", "kovari ugyvedi iroda"],
    ["PÉLDA Kereskedelmi és Szolgáltató Korlátolt Felelősségű Társaság", "pelda kereskedelmi es szolgaltato"],
    ["MOL Magyar Olaj- és Gázipari Nyilvánosan Működő Részvénytársaság", "mol magyar olaj es gazipari"],
    ["Richter Gedeon Vegyészeti Gyár Nyrt.", "richter gedeon vegyeszeti gyar"],
    ["4iG Nyrt.", "4ig"],
    ["Szabó & Társa Bt. f.a.", "szabo es tarsa"],
    ["Kovács János e.v.", "kovacs janos"],
    ["KOVÁCS JÁNOS E.V.", "kovacs janos"],
    ["Nagy Éva egyéni vállalkozó", "nagy eva"],
    ["Budapesti Közlekedési Zártkörűen Működő Részvénytársaság", "budapesti kozlekedesi"],
    ["Magyar Vöröskereszt Egyesület", "magyar voroskereszt"],
    ["Zöld Kert Nonprofit Kft.", "zold kert"],
    ["Tiszta Víz Szövetkezet v.a.", "tiszta viz"],
    // A name that is only a legal form keeps it: nothing would be left to compare.
    ["Kft.", "kft"],
  ])("%s → %s", (name, words) => {
    expect(normaliseName(name).join(" ")).toBe(words);
  });
});

describe("findMatchingName", () => {
  it.each([
    ["KOVARI UGYVEDI IRODA", "Kővári Ügyvédi Iroda", "equal"],
    ["Kővári Ügyvédi Iroda", "Dr. Kővári Ügyvédi Iroda", "shortened"],
    ["Példa Kft", "PÉLDA Korlátolt Felelősségű Társaság", "equal"],
    [
      "Példa Kereskedelmi Kft.",
      "PÉLDA Kereskedelmi és Szolgáltató Korlátolt Felelősségű Társaság",
      "shortened",
    ],
    ["MOL Nyrt", "MOL Nyrt.", "equal"],
    [
      "Richter Gedeon Nyrt.",
      "Richter Gedeon Vegyészeti Gyár Nyilvánosan Működő Részvénytársaság",
      "shortened",
    ],
    ["Kovács János EV", "Kovács János egyéni vállalkozó", "equal"],
    ["Szabó és Társa Bt.", "Szabó & Társa Betéti Társaság", "equal"],
    ["OTP  Bank,  Nyrt", "OTP Bank Nyrt.", "equal"],
  ])("%s matches %s (%s)", (file, registry) => {
    expect(findMatchingName(file, [registry])).toBe(registry);
  });

  it.each([
    // Another company whose name starts like the payee's.
    ["Mol Ingatlan Kft.", "MOL Nyrt."],
    ["Magyar Telekom Ingatlankezelő Kft.", "Magyar Telekom Nyrt."],
    // One word of the registry name is not enough to tell companies apart.
    ["Richter", "Richter Gedeon Vegyészeti Gyár Nyrt."],
    ["Telekom", "Magyar Telekom Távközlési Nyrt."],
    // The same words in another order are another name.
    ["Gedeon Richter Nyrt.", "Richter Gedeon Vegyészeti Gyár Nyrt."],
    // Different person, same surname.
    ["Kovács Péter e.v.", "Kovács János e.v."],
    ["Kővári Ügyvédi Iroda", "Kővágó Ügyvédi Iroda"],
    ["Kft.", "Példa Kft."],
  ])("%s does not match %s", (file, registry) => {
    expect(findMatchingName(file, [registry])).toBeNull();
  });

  it("finds the registry name the file's name matches among all of them", () => {
    const names = ["MAGYAR TELEKOM Távközlési Nyilvánosan Működő Részvénytársaság", "Magyar Telekom Nyrt."];
    expect(findMatchingName("Magyar Telekom Nyrt", names)).toBe("Magyar Telekom Nyrt.");
    expect(findMatchingName("Magyar Telekom Távközlési", names)).toBe(names[0]);
    expect(findMatchingName("Telekom Kft.", names)).toBeNull();
    expect(findMatchingName("Bármi", [])).toBeNull();
  });
});
