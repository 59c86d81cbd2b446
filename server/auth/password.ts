/**
 * Password hashing with scrypt (node:crypto) and a per-user salt. The cost parameters
 * travel inside the stored hash (`scrypt$N$r$p$salt$hash`, base64 parts), so a hash made
 * with other parameters still verifies.
 */
import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** Cost for passwords chosen by people (sign-up). */
export const DEFAULT_COST: ScryptCost = { N: 16384, r: 8, p: 1 };

function scryptAsync(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, costOptions(cost), (err, key) => (err ? reject(err) : resolve(key)));
  });
}

function costOptions({ N, r, p }: ScryptCost): ScryptOptions {
  // scrypt needs 128·N·r bytes; the Node default cap (32 MiB) is too tight for some costs.
  return { N, r, p, maxmem: 256 * N * r };
}

function encode(cost: ScryptCost, salt: Buffer, key: Buffer): string {
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Hashes a new password with a fresh random salt; runs on the libuv thread pool. */
export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(16);
  return encode(cost, salt, await scryptAsync(password, salt, cost));
}

/** Synchronous variant with a caller-chosen salt, for the deterministic seed. */
export function hashPasswordSync(password: string, salt: Buffer, cost: ScryptCost): string {
  return encode(cost, salt, scryptSync(password, salt, KEY_LENGTH, costOptions(cost)));
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let decoy: Promise<string> | undefined;

/**
 * Spends the same work as a real check when the account does not exist, so response time
 * does not tell which accounts are registered. Always false.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoy ??= hashPassword('decoy-password');
  await verifyPassword(password, await decoy);
  return false;
}
