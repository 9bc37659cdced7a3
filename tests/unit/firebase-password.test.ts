import { describe, expect, it } from 'vitest';
import {
  firebaseHashConfigSchema,
  firebaseStoredHash,
  isFirebaseHash,
  storedFirebaseHashConfigSchema,
  toStoredConfig,
  verifyFirebasePassword,
  type FirebaseHashConfig,
} from '../../src/server/auth/firebase-password';
import { VECTOR_ACCOUNT, VECTOR_HASH_CONFIG_JSON } from '../support/firebase-vector';

const CONSOLE_JSON = VECTOR_HASH_CONFIG_JSON;
const VECTOR = {
  ...VECTOR_ACCOUNT,
  signerKey: CONSOLE_JSON.hash_config.base64_signer_key,
  saltSeparator: CONSOLE_JSON.hash_config.base64_salt_separator,
  rounds: CONSOLE_JSON.hash_config.rounds,
  memCost: CONSOLE_JSON.hash_config.mem_cost,
};

const config: FirebaseHashConfig = {
  signerKey: Buffer.from(VECTOR.signerKey, 'base64'),
  saltSeparator: Buffer.from(VECTOR.saltSeparator, 'base64'),
  rounds: VECTOR.rounds,
  memCost: VECTOR.memCost,
};
const stored = firebaseStoredHash(VECTOR.salt, VECTOR.hash);

/** Flips one bit of a base64 value. */
const flip = (b64: string) => {
  const bytes = Buffer.from(b64, 'base64');
  bytes[0]! ^= 1;
  return bytes.toString('base64');
};

describe('Firebase modified scrypt', () => {
  it('stores a Firebase hash as $firebase-scrypt$<salt>$<hash>', () => {
    expect(stored).toBe(`$firebase-scrypt$${VECTOR.salt}$${VECTOR.hash}`);
    expect(isFirebaseHash(stored)).toBe(true);
    expect(isFirebaseHash('$argon2id$v=19$m=19456,t=2,p=1$abc$def')).toBe(false);
    expect(() => firebaseStoredHash('', VECTOR.hash)).toThrow();
    expect(() => firebaseStoredHash('not base64!', VECTOR.hash)).toThrow();
    expect(() => firebaseStoredHash(VECTOR.salt, 'a$b')).toThrow();
  });

  it('verifies the public test vector', async () => {
    expect(await verifyFirebasePassword(stored, VECTOR.password, config)).toBe(true);
  });

  it('refuses a wrong password', async () => {
    expect(await verifyFirebasePassword(stored, 'user1Password', config)).toBe(false);
    expect(await verifyFirebasePassword(stored, '', config)).toBe(false);
  });

  it('refuses when the salt, the separator or the signer key is tampered with', async () => {
    expect(await verifyFirebasePassword(firebaseStoredHash(flip(VECTOR.salt), VECTOR.hash), VECTOR.password, config)).toBe(false);
    expect(await verifyFirebasePassword(firebaseStoredHash(VECTOR.salt, flip(VECTOR.hash)), VECTOR.password, config)).toBe(false);
    expect(await verifyFirebasePassword(stored, VECTOR.password, { ...config, saltSeparator: Buffer.from('Bg==', 'base64') })).toBe(false);
    expect(await verifyFirebasePassword(stored, VECTOR.password, { ...config, saltSeparator: Buffer.alloc(0) })).toBe(false);
    expect(await verifyFirebasePassword(stored, VECTOR.password, { ...config, signerKey: Buffer.from(flip(VECTOR.signerKey), 'base64') })).toBe(false);
    expect(await verifyFirebasePassword(stored, VECTOR.password, { ...config, rounds: 9 })).toBe(false);
  });

  it('refuses malformed stored values and a missing config', async () => {
    expect(await verifyFirebasePassword('$firebase-scrypt$only-one-part', VECTOR.password, config)).toBe(false);
    expect(await verifyFirebasePassword(`${stored}$extra`, VECTOR.password, config)).toBe(false);
    expect(await verifyFirebasePassword(stored, VECTOR.password, undefined)).toBe(false);
  });

  it('refuses parameters outside the bounds without computing them', async () => {
    for (const bad of [{ memCost: 9 }, { memCost: 18 }, { memCost: 40 }, { rounds: 0 }, { rounds: 17 }, { rounds: 1.5 }]) {
      const started = performance.now();
      expect(await verifyFirebasePassword(stored, VECTOR.password, { ...config, ...bad })).toBe(false);
      expect(performance.now() - started).toBeLessThan(50);
    }
    expect(await verifyFirebasePassword(stored, VECTOR.password, { ...config, signerKey: Buffer.alloc(0) })).toBe(false);
  });
});

describe('Firebase hash config schema', () => {
  it("accepts the console's JSON (and the bare inner object, and numbers written as text)", () => {
    expect(firebaseHashConfigSchema.parse(CONSOLE_JSON)).toEqual(config);
    expect(firebaseHashConfigSchema.parse(CONSOLE_JSON.hash_config)).toEqual(config);
    const { algorithm: _, ...withoutAlgorithm } = CONSOLE_JSON.hash_config;
    expect(firebaseHashConfigSchema.parse({ hash_config: { ...withoutAlgorithm, rounds: '8', mem_cost: '14' } })).toEqual(config);
  });

  it('refuses bad input', () => {
    const inner = CONSOLE_JSON.hash_config;
    const bad: unknown[] = [
      null,
      {},
      { hash_config: {} },
      { hash_config: { ...inner, algorithm: 'BCRYPT' } },
      { hash_config: { ...inner, base64_signer_key: undefined } },
      { hash_config: { ...inner, base64_signer_key: 'not base64!' } },
      { hash_config: { ...inner, base64_signer_key: 'AAAA' } }, // 3 bytes: too short to be a signer key
      { hash_config: { ...inner, base64_salt_separator: 'B w==' } },
      { hash_config: { ...inner, rounds: 0 } },
      { hash_config: { ...inner, rounds: 17 } },
      { hash_config: { ...inner, rounds: 8.5 } },
      { hash_config: { ...inner, mem_cost: 9 } },
      { hash_config: { ...inner, mem_cost: 18 } },
      { hash_config: { ...inner, mem_cost: 'fourteen' } },
    ];
    for (const input of bad) expect(firebaseHashConfigSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
  });

  it('round-trips through the stored (jsonb) form', () => {
    const json = JSON.parse(JSON.stringify(toStoredConfig(config)));
    expect(json).toEqual({ signerKey: VECTOR.signerKey, saltSeparator: VECTOR.saltSeparator, rounds: 8, memCost: 14 });
    expect(storedFirebaseHashConfigSchema.parse(json)).toEqual(config);
    expect(storedFirebaseHashConfigSchema.safeParse({ ...json, memCost: 30 }).success).toBe(false);
  });
});
