import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/server/auth/password-hash';

describe('password hashing', () => {
  it('argon2id hashes carry the OWASP parameters and verify only the right password', async () => {
    const hash = await hashPassword('s3cret pass', 'argon2id');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await verifyPassword({ hash, password: 's3cret pass' })).toBe(true);
    expect(await verifyPassword({ hash, password: 's3cret pasS' })).toBe(false);
  });

  it('scrypt (the Node 22 fallback) uses N=2^17 r=8 p=1 and verifies', async () => {
    const hash = await hashPassword('s3cret pass', 'scrypt');
    expect(hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
    expect(await verifyPassword({ hash, password: 's3cret pass' })).toBe(true);
    expect(await verifyPassword({ hash, password: 'wrong' })).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same', 'argon2id')).not.toBe(await hashPassword('same', 'argon2id'));
  });

  it('refuses malformed hashes and parameters that would cost unbounded work', async () => {
    const good = await hashPassword('pw', 'argon2id');
    expect(await verifyPassword({ hash: 'plain-text', password: 'pw' })).toBe(false);
    expect(await verifyPassword({ hash: good.replace('m=19456', 'm=99999999'), password: 'pw' })).toBe(false);
    expect(await verifyPassword({ hash: '$scrypt$ln=30,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$AAAA', password: 'pw' })).toBe(false);
  });
});
