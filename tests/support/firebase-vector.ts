/**
 * The public test vector of github.com/firebase/scrypt (README): one project's password-hash parameters,
 * as Firebase's console shows them, and one account hashed with them.
 */
export const VECTOR_HASH_CONFIG_JSON = {
  hash_config: {
    algorithm: 'SCRYPT',
    base64_signer_key: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
    base64_salt_separator: 'Bw==',
    rounds: 8,
    mem_cost: 14,
  },
} as const;

/** Standard base64, as `auth:export` writes them (listUsers hands out the URL-safe form). */
export const VECTOR_ACCOUNT = {
  password: 'user1password',
  salt: '42xEC+ixf3L2lw==',
  hash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
} as const;

/** The URL-safe base64 firebase-admin's listUsers returns. */
export const urlSafe = (base64: string) => base64.replace(/\+/g, '-').replace(/\//g, '_');
