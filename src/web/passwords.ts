/**
 * Console passwords: scrypt from node:crypto (memory-hard, no native add-on to build, nothing to
 * bundle), with a random salt per password and the cost parameters stored inside the hash string
 * (`scrypt$N$r$p$salt$hash`), so a later, higher cost applies to new hashes while old ones still
 * verify. Argon2id would need a native or WebAssembly package; scrypt at N=2^15, r=8 (32 MiB per
 * hash) is the memory-hard choice the platform already ships.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    return `the password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `the password must be at most ${MAX_PASSWORD_LENGTH} characters long`;
  return null;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST.N, COST.r, COST.p);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Whether `password` matches `stored`; a hash in an unknown shape never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0)) return false;
  const expected = Buffer.from(parts[5]!, "base64url");
  if (expected.length !== KEY_BYTES || password.length > MAX_PASSWORD_LENGTH) return false;
  const key = await derive(password, Buffer.from(parts[4]!, "base64url"), N, r, p);
  return timingSafeEqual(key, expected);
}

/** A hash of no one's password: checked when the user name is unknown, so both answers take as long. */
export const DECOY_HASH = `scrypt$${COST.N}$${COST.r}$${COST.p}$AAAAAAAAAAAAAAAAAAAAAA$${"A".repeat(43)}`;

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFC"),
      salt,
      KEY_BYTES,
      { N, r, p, maxmem: 256 * N * r + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}
