/**
 * Password hashing at the OWASP password-storage minimums: argon2id m=19456 KiB, t=2, p=1 (Node ≥ 24.7 has
 * it natively), else scrypt N=2^17, r=8, p=1 (Node 22). Hashes are PHC strings that carry their
 * parameters, so verification keeps working when the defaults or the runtime change.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';

export const ARGON2ID = { memory: 19_456, passes: 2, parallelism: 1 } as const;
export const SCRYPT = { logN: 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

type Argon2 = (
  algorithm: 'argon2id',
  params: { message: string; nonce: Buffer; parallelism: number; tagLength: number; memory: number; passes: number },
  callback: (err: Error | null, key: Buffer) => void,
) => void;
const argon2Native = (crypto as unknown as { argon2?: Argon2 }).argon2;
const argon2 = argon2Native ? promisify(argon2Native) : undefined;

const scryptAsync = (password: string, salt: Buffer, logN: number, r: number, p: number, len: number) =>
  new Promise<Buffer>((resolve, reject) =>
    // maxmem: scrypt needs 128·N·r bytes (128 MiB at N=2^17, r=8); Node's default cap is 32 MiB.
    crypto.scrypt(password, salt, len, { N: 2 ** logN, r, p, maxmem: 129 * 2 ** logN * r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );

const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
const unb64 = (s: string) => Buffer.from(s, 'base64');

export async function hashPassword(password: string, algorithm: 'argon2id' | 'scrypt' = argon2 ? 'argon2id' : 'scrypt') {
  const salt = crypto.randomBytes(SALT_LENGTH);
  if (algorithm === 'argon2id') {
    if (!argon2) throw new Error('argon2id needs Node.js 24.7 or newer');
    const key = await argon2('argon2id', { message: password, nonce: salt, tagLength: KEY_LENGTH, ...ARGON2ID });
    return `$argon2id$v=19$m=${ARGON2ID.memory},t=${ARGON2ID.passes},p=${ARGON2ID.parallelism}$${b64(salt)}$${b64(key)}`;
  }
  const key = await scryptAsync(password, salt, SCRYPT.logN, SCRYPT.r, SCRYPT.p, KEY_LENGTH);
  return `$scrypt$ln=${SCRYPT.logN},r=${SCRYPT.r},p=${SCRYPT.p}$${b64(salt)}$${b64(key)}`;
}

const PHC = /^\$(argon2id|scrypt)\$(?:v=19\$)?([a-z]+=\d+(?:,[a-z]+=\d+)*)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Parameters a stored hash may claim; anything else is refused rather than computed (no DoS by hash). */
function params(list: string) {
  return Object.fromEntries(list.split(',').map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)])) as Record<string, number>;
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
  const m = PHC.exec(hash);
  if (!m) return false;
  const [, algorithm, list, saltB64, keyB64] = m;
  const p = params(list!);
  const salt = unb64(saltB64!);
  const expected = unb64(keyB64!);
  let actual: Buffer;
  if (algorithm === 'argon2id') {
    if (!argon2 || !(p.m! >= 8 && p.m! <= 262_144 && p.t! >= 1 && p.t! <= 10 && p.p === 1)) return false;
    actual = await argon2('argon2id', { message: password, nonce: salt, tagLength: expected.length, memory: p.m!, passes: p.t!, parallelism: 1 });
  } else {
    if (!(p.ln! >= 10 && p.ln! <= 20 && p.r! >= 1 && p.r! <= 16 && p.p === 1)) return false;
    actual = await scryptAsync(password, salt, p.ln!, p.r!, 1, expected.length);
  }
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}
