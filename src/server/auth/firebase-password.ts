/**
 * Passwords moved in from Firebase Auth, verified with Firebase's modified scrypt until the member's first
 * successful sign-in re-hashes them with our argon2id (decision 015).
 *
 * The algorithm (firebase/scrypt): derivedKey = scrypt(password, salt ‖ saltSeparator, N = 2^memCost,
 * r = rounds, p = 1, 64 bytes); hash = AES-256-CTR(key = derivedKey[0..32), iv = 16 zero bytes) applied to
 * the project's signer key. The signer key, salt separator, rounds and mem_cost are the project's (one
 * set per Firebase project, shown in its console); the salt and hash are per account.
 *
 * Stored per account, in the credential account's password column:
 *   `$firebase-scrypt$<salt, standard base64>$<hash, standard base64>`
 * The project's parameters are stored once, in app_config under 'firebaseAuthHash' (see
 * src/server/modules/firebase-auth/hash-config.ts). Pure module: no database, no logging (a hash or the
 * signer key must never reach a log).
 */
import crypto from 'node:crypto';
import { z } from 'astro/zod';

export const FIREBASE_HASH_PREFIX = '$firebase-scrypt$';

/** Bounds a config may claim; anything outside is refused rather than computed (Firebase uses 14 and 8). */
export const FIREBASE_BOUNDS = { memCost: { min: 10, max: 17 }, rounds: { min: 1, max: 16 } } as const;

const KEY_LENGTH = 64;

export interface FirebaseHashConfig {
  signerKey: Buffer;
  saltSeparator: Buffer;
  rounds: number;
  memCost: number;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const base64Bytes = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(BASE64, 'must be standard base64')
    .transform((s) => Buffer.from(s, 'base64'))
    .refine((b) => b.length >= min && b.length <= max, `must decode to ${min}–${max} bytes`);

/** An integer, also when the console's text was copied as a string ("8"). */
const boundedInt = ({ min, max }: { min: number; max: number }) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)])
    .pipe(z.number().int().min(min).max(max));

const innerConfigSchema = z.object({
  algorithm: z
    .string()
    .refine((a) => a.toUpperCase() === 'SCRYPT', 'only SCRYPT password hashes are supported')
    .optional(),
  base64_signer_key: base64Bytes(16, 256),
  base64_salt_separator: base64Bytes(0, 64),
  rounds: boundedInt(FIREBASE_BOUNDS.rounds),
  mem_cost: boundedInt(FIREBASE_BOUNDS.memCost),
});

/**
 * The project's hash parameters as Firebase's console shows them (Authentication → Users → ⋮ → Password
 * hash parameters), written as JSON — the file `--auth-hash-config` reads:
 *   { "hash_config": { "algorithm": "SCRYPT", "base64_signer_key": "…", "base64_salt_separator": "Bw==",
 *     "rounds": 8, "mem_cost": 14 } }
 * The bare inner object is accepted too.
 */
export const firebaseHashConfigSchema = z
  .union([z.object({ hash_config: innerConfigSchema }).transform((o) => o.hash_config), innerConfigSchema])
  .transform(
    (c): FirebaseHashConfig => ({
      signerKey: c.base64_signer_key,
      saltSeparator: c.base64_salt_separator,
      rounds: c.rounds,
      memCost: c.mem_cost,
    }),
  );

/** The stored (jsonb) form of a config: base64 strings, so it round-trips through JSON. */
export interface StoredFirebaseHashConfig {
  signerKey: string;
  saltSeparator: string;
  rounds: number;
  memCost: number;
}

export const storedFirebaseHashConfigSchema = z
  .object({
    signerKey: base64Bytes(16, 256),
    saltSeparator: base64Bytes(0, 64),
    rounds: z.number().int().min(FIREBASE_BOUNDS.rounds.min).max(FIREBASE_BOUNDS.rounds.max),
    memCost: z.number().int().min(FIREBASE_BOUNDS.memCost.min).max(FIREBASE_BOUNDS.memCost.max),
  })
  .transform((c): FirebaseHashConfig => c);

export const toStoredConfig = (c: FirebaseHashConfig): StoredFirebaseHashConfig => ({
  signerKey: c.signerKey.toString('base64'),
  saltSeparator: c.saltSeparator.toString('base64'),
  rounds: c.rounds,
  memCost: c.memCost,
});

const STORED = /^\$firebase-scrypt\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

export const isFirebaseHash = (hash: string) => hash.startsWith(FIREBASE_HASH_PREFIX);

/** The account column's value for a Firebase user's `passwordSalt` and `passwordHash` (both base64). */
export function firebaseStoredHash(saltBase64: string, hashBase64: string): string {
  const stored = `${FIREBASE_HASH_PREFIX}${saltBase64}$${hashBase64}`;
  if (!STORED.test(stored) || !BASE64.test(saltBase64) || !BASE64.test(hashBase64)) {
    throw new Error('Firebase password salt and hash must be non-empty standard base64');
  }
  return stored;
}

function inBounds(c: FirebaseHashConfig) {
  const { memCost, rounds } = FIREBASE_BOUNDS;
  return (
    Number.isInteger(c.memCost) &&
    Number.isInteger(c.rounds) &&
    c.memCost >= memCost.min &&
    c.memCost <= memCost.max &&
    c.rounds >= rounds.min &&
    c.rounds <= rounds.max &&
    c.signerKey.length > 0
  );
}

const scrypt = (password: string, salt: Buffer, c: FirebaseHashConfig) =>
  new Promise<Buffer>((resolve, reject) =>
    // scrypt needs 128·N·r bytes (16 MiB for Firebase's N=2^14, r=8); Node's default cap is 32 MiB.
    crypto.scrypt(password, salt, KEY_LENGTH, { N: 2 ** c.memCost, r: c.rounds, p: 1, maxmem: 129 * 2 ** c.memCost * c.rounds + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );

/** Firebase's hash of `password` with one account's salt (base64 of the result is what Firebase stores). */
export async function firebaseScrypt(password: string, salt: Buffer, config: FirebaseHashConfig): Promise<Buffer> {
  const derived = await scrypt(password, Buffer.concat([salt, config.saltSeparator]), config);
  const cipher = crypto.createCipheriv('aes-256-ctr', derived.subarray(0, 32), Buffer.alloc(16));
  return Buffer.concat([cipher.update(config.signerKey), cipher.final()]);
}

/**
 * True when `password` matches a stored `$firebase-scrypt$…` hash under the project's config. False for a
 * wrong password, a malformed hash, no config, or parameters outside FIREBASE_BOUNDS (never computed).
 */
export async function verifyFirebasePassword(stored: string, password: string, config: FirebaseHashConfig | undefined): Promise<boolean> {
  const m = STORED.exec(stored);
  if (!m || !config || !inBounds(config)) return false;
  const salt = Buffer.from(m[1]!, 'base64');
  const expected = Buffer.from(m[2]!, 'base64');
  const actual = await firebaseScrypt(password, salt, config);
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}
