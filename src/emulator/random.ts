/**
 * Deterministic randomness for the emulator. Everything the emulator invents (businesses, change
 * history, list keys, fault draws) is a pure function of the seed and a few integers or strings,
 * so two emulators with the same seed agree without sharing state and without a stored data set.
 */

/** Scrambles a 32-bit integer so that neighbouring inputs give unrelated outputs. */
export function scramble(value: number): number {
  let x = value | 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Combines any number of integers into one well-mixed unsigned 32-bit value. */
export function mix(...parts: number[]): number {
  let h = 0x2545f491;
  for (const part of parts) h = scramble(h ^ scramble(part + 0x9e3779b9));
  return h;
}

/** 32-bit hash of a string (FNV-1a over UTF-16 units, then scrambled). */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return scramble(h);
}

/** The emulator's seed as a 32-bit integer; strings and numbers are both accepted. */
export function seedOf(seed: number | string): number {
  return typeof seed === "number" && Number.isInteger(seed) ? mix(seed) : hashText(String(seed));
}

/** Maps a 32-bit hash to [0, 1). */
export function unit(hash: number): number {
  return hash / 0x1_0000_0000;
}

/** A small sequential generator, used where one record needs many draws. */
export class Rng {
  private state: number;

  constructor(...parts: number[]) {
    this.state = mix(...parts);
  }

  /** Next value in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    return unit(scramble(this.state));
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  digits(count: number): string {
    let out = "";
    for (let i = 0; i < count; i++) out += String(this.int(10));
    return out;
  }
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * A bijection of [0, size) chosen by the seed: x -> (a*x + b) mod size. Identifiers are built from
 * it, so a registration number or tax number can be turned back into the business it belongs to
 * without an index.
 */
export class Permutation {
  private readonly a: bigint;
  private readonly b: bigint;
  private readonly aInverse: bigint;
  private readonly n: bigint;

  constructor(
    readonly size: number,
    seed: number,
    salt: number,
  ) {
    let a = 1 + (mix(seed, salt, 1) % (size - 1));
    while (gcd(a, size) !== 1) a = (a % (size - 1)) + 1;
    this.n = BigInt(size);
    this.a = BigInt(a);
    this.b = BigInt(mix(seed, salt, 2) % size);
    this.aInverse = modInverse(this.a, this.n);
  }

  forward(x: number): number {
    return Number((this.a * BigInt(x) + this.b) % this.n);
  }

  backward(y: number): number {
    return Number((this.aInverse * (((BigInt(y) - this.b) % this.n) + this.n)) % this.n);
  }
}

function modInverse(a: bigint, n: bigint): bigint {
  let [oldR, r] = [a, n];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % n) + n) % n;
}
