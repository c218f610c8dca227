// Random credentials and their storage form. Every secret VetDx issues is 256 bits from the CSPRNG,
// so a fast SHA-256 digest is enough to store it (slow hashing is for human passwords).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}

/** Compares a presented secret with a stored SHA-256 digest in constant time. */
export function secretMatches(presented: string, storedHash: string | null | undefined): boolean {
  if (!storedHash) return false;
  const a = Buffer.from(sha256(presented));
  const b = Buffer.from(storedHash);
  return a.length === b.length && timingSafeEqual(a, b);
}
