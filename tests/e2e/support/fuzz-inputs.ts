/**
 * What the fuzz spec sends: a seeded random generator and the random or malformed methods, bodies, content
 * types and headers it draws from. Everything random comes from one seeded Rng, so a seed replays the run.
 */

/** mulberry32: small, fast, good enough to pick test inputs; the same seed gives the same sequence. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** In [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight: [[value, weight], ...]. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
    const total = choices.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [value, weight] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return choices.at(-1)![0];
  }

  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = Math.floor(this.next() * 256);
    return out;
  }

  word(length = 8): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

// ---- Methods ----------------------------------------------------------------------------------------

/** One request per method for every route, plus one odd token (see ODD_METHODS). */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND'] as const;
/**
 * Lower/mixed case and CONNECT (these go over a raw socket: Node's client upper-cases methods and treats
 * CONNECT as a tunnel), tokens Node's parser knows but nobody routes (PURGE, QUERY, M-SEARCH…) and
 * unknown ones.
 */
export const ODD_METHODS = ['get', 'post', 'Post', 'CONNECT', 'FOO', 'BREW', 'TRACK', 'PURGE', 'QUERY', 'SEARCH', 'MKCOL', 'LOCK', 'REPORT', 'M-SEARCH'] as const;

// ---- Bodies -----------------------------------------------------------------------------------------

export interface FuzzBody {
  /** A short name for the table of failures. */
  kind: string;
  bytes: Buffer;
  /** The content type that fits the body; the request may send another. */
  naturalType: string | undefined;
  /** Sent with Transfer-Encoding: chunked whatever the draw (the oversize body: a declared size would be refused up front). */
  forceChunked?: boolean;
}

/** Context a body needs: where never-existing accounts' emails come from, and the path it goes to. */
export interface BodyContext {
  email(): string;
  path: string;
}

/** Keys that walk into Object.prototype when a parser, a spread or an `obj[key] ??=` is careless. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'prototype', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'toLocaleString'] as const;

/** Field names the Actions and better-auth read, so random objects often get past the first checks. */
const FIELDS = [
  'email',
  'password',
  'newPassword',
  'confirmPassword',
  'currentPassword',
  'firstName',
  'lastName',
  'name',
  'phone',
  'website',
  'userId',
  'token',
  'callbackURL',
  'rememberMe',
  'role',
  'image',
  'signupSource',
  'provider',
] as const;

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '😀'.repeat(50),
  '\u202eevil',
  '<script>alert(1)</script>',
  "' OR 1=1--",
  '../../../etc/passwd',
  '%00%ZZ',
  '${7*7}{{7*7}}',
  'https://evil.example/',
  '//evil.example',
  'javascript:alert(1)',
  '1e999',
  'null',
  'a@b',
] as const;

/** A value for a field: usually a plausible string, often something a schema must refuse. */
function fuzzValue(rng: Rng, field: string, ctx: BodyContext, depth = 0): unknown {
  const plausible = (): unknown => {
    if (field === 'email') return ctx.email();
    if (/password/i.test(field)) return `pw-${rng.word(10)}`;
    if (field === 'callbackURL' || field === 'signupSource') return rng.pick(['/', '/dashboard', '/verify-email', 'https://evil.example']);
    if (field === 'rememberMe') return rng.chance(0.5);
    return `Fuzz ${rng.word(5)}`;
  };
  return rng.weighted<() => unknown>([
    [plausible, 6],
    [() => rng.pick(ODD_STRINGS), 3],
    [() => 'x'.repeat(rng.pick([101, 255, 4096, 70_000])), 1],
    [() => rng.pick([0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER + 2]), 1],
    [() => rng.pick([true, false, null]), 1],
    [() => (depth < 2 ? [fuzzValue(rng, field, ctx, depth + 1)] : []), 1],
    [() => (depth < 2 ? { [rng.pick(FIELDS)]: fuzzValue(rng, field, ctx, depth + 1) } : {}), 1],
  ])();
}

/** What sign-up, sign-in and the profile Action accept: bodies that get past "email is required". */
function validLooking(rng: Rng, ctx: BodyContext): Record<string, unknown> {
  return { email: ctx.email(), password: `pw-${rng.word(10)}`, firstName: `Fuzz ${rng.word(4)}`, lastName: `Test ${rng.word(4)}` };
}

/** A random subset of the known fields with random values, often on top of a valid-looking body. */
function plausibleObject(rng: Rng, ctx: BodyContext): Record<string, unknown> {
  const out: Record<string, unknown> = rng.chance(0.7) ? validLooking(rng, ctx) : {};
  const count = rng.int(1, 6);
  for (let i = 0; i < count; i++) {
    const field = rng.pick(FIELDS);
    out[field] = fuzzValue(rng, field, ctx);
  }
  return out;
}

/**
 * Valid input at the edges of the rules (longest names, unicode, optional fields), so requests also get
 * past validation into the code behind it. Shaped by the path when one fits, else any shape.
 */
const VALID_SHAPES: ReadonlyArray<{ name: string; fits: RegExp; make: (rng: Rng, ctx: BodyContext) => Record<string, unknown> }> = [
  {
    name: 'sign-up',
    fits: /sign-up/,
    make: (rng, ctx) => ({
      ...validLooking(rng, ctx),
      firstName: rng.pick(['Zoë', 'Ōtsuka 大塚', '😀', 'A'.repeat(100), "O'Brien-Łukasz"]),
      password: rng.pick(['123456', 'p'.repeat(128), `pw ${rng.word(6)} ü`]),
      ...(rng.chance(0.5) ? { phone: rng.pick(['+1 (555) 0100', '  ', '00000']), website: rng.pick(['example.com', 'http://a.b', ' ', 'bücher.example']) } : {}),
      ...(rng.chance(0.5) ? { signupSource: rng.pick(['/', `/${'p'.repeat(511)}`, '//evil.example', 'x']), rememberMe: rng.chance(0.5) } : {}),
    }),
  },
  {
    name: 'profile',
    fits: /updateProfile/,
    make: (rng) => ({ firstName: rng.pick(['Zoë', 'A'.repeat(100), '😀']), lastName: `Fuzz ${rng.word(4)}`, phone: rng.pick(['+44 20 7946 0000', '']), website: rng.pick(['', 'example.com', 'https://a.b/c?d']) }),
  },
  { name: 'user-id', fits: /promote|user/i, make: (rng) => ({ userId: rng.pick([rng.word(32), 'x'.repeat(200), ' id ']) }) },
  { name: 'sign-in', fits: /sign-in|password|verif/, make: (rng, ctx) => ({ email: ctx.email(), password: `pw-${rng.word(8)}` }) },
];

const json = (kind: string, text: string): FuzzBody => ({ kind, bytes: Buffer.from(text, 'utf8'), naturalType: 'application/json' });

const INVALID_JSON = [
  '{',
  '}',
  '{"email":}',
  "{'email':'a@b.c'}",
  '{"a":1,}',
  '[1,2,',
  'undefined',
  'NaN',
  '{"a":01}',
  '{"a":"\\x41"}',
  '{"a" "b"}',
  '\u0000',
  '{}{}',
  '{"a":1} trailing',
] as const;

const TOP_LEVEL_JSON = ['0', '-1', '1e999', 'null', 'true', '"text"', '[]', '[1,2,3]', '[{}]', '[null]', '""'] as const;

export const BODY_KINDS = {
  empty: (): FuzzBody => ({ kind: 'empty', bytes: Buffer.alloc(0), naturalType: 'application/json' }),

  'json-object': (rng: Rng, ctx: BodyContext) => json('json-object', JSON.stringify(plausibleObject(rng, ctx))),

  'json-valid': (rng: Rng, ctx: BodyContext) => {
    const shape = VALID_SHAPES.find((s) => s.fits.test(ctx.path)) ?? rng.pick(VALID_SHAPES);
    return json(`json-valid:${shape.name}`, JSON.stringify(shape.make(rng, ctx)));
  },

  /** A valid-looking body plus a key named like a prototype member (JSON.parse makes it an own property). */
  'json-proto-key': (rng: Rng, ctx: BodyContext) => {
    const key = rng.pick(PROTOTYPE_KEYS);
    const value = rng.pick(['{"isAdmin":true,"role":"admin"}', '"x"', '1', 'null', '[]', '{"toString":1}']);
    return json(`json-proto-key:${key}`, `{${JSON.stringify(key)}:${value},${JSON.stringify(validLooking(rng, ctx)).slice(1)}`);
  },

  'json-invalid': (rng: Rng) => json('json-invalid', rng.pick(INVALID_JSON)),

  /** A valid object cut short, as a dropped connection or a buggy client sends it. */
  'json-truncated': (rng: Rng, ctx: BodyContext) => {
    const text = JSON.stringify(plausibleObject(rng, ctx));
    return json('json-truncated', text.slice(0, rng.int(1, text.length - 1)));
  },

  /** Deep nesting: parsers are fine, recursive validators, loggers and cloners may not be. */
  'json-deep-array': (rng: Rng) => {
    const depth = rng.pick([1_000, 20_000, 100_000]);
    return json(`json-deep-array:${depth}`, '['.repeat(depth) + ']'.repeat(depth));
  },

  'json-deep-object': (rng: Rng) => {
    const depth = rng.pick([1_000, 20_000, 100_000]);
    return json(`json-deep-object:${depth}`, '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
  },

  /** Under the 1 MiB limit, far over any field's maximum. */
  'json-huge-string': (rng: Rng, ctx: BodyContext) => {
    const field = rng.pick(FIELDS);
    return json(`json-huge-string:${field}`, JSON.stringify({ ...plausibleObject(rng, ctx), [field]: 'A'.repeat(rng.pick([100_000, 900_000])) }));
  },

  'json-top-level': (rng: Rng) => json('json-top-level', rng.pick(TOP_LEVEL_JSON)),

  /** Escaped NULs, lone surrogates, emoji and bidi controls in every field; sometimes a byte order mark. */
  'json-unicode': (rng: Rng, ctx: BodyContext) => {
    const obj = plausibleObject(rng, ctx);
    for (const key of Object.keys(obj)) if (key !== 'email') obj[key] = rng.pick(ODD_STRINGS.slice(2, 8));
    const text = JSON.stringify(obj);
    return rng.chance(0.3)
      ? { kind: 'json-unicode:utf16le+bom', bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), naturalType: 'application/json; charset=utf-16' }
      : json('json-unicode', (rng.chance(0.3) ? '\ufeff' : '') + text);
  },

  /** Raw NUL and control bytes inside a JSON string: invalid JSON that looks almost right. */
  'raw-nul': (rng: Rng, ctx: BodyContext) => ({
    kind: 'raw-nul',
    bytes: Buffer.concat([Buffer.from(`{"email":"${ctx.email()}","firstName":"a`), Buffer.from([0, 1, 0x1b, 0]), Buffer.from('b"}')]),
    naturalType: rng.pick(['application/json', 'text/plain']),
  }),

  binary: (rng: Rng) => ({ kind: 'binary', bytes: rng.bytes(rng.pick([1, 16, 4096, 65_537])), naturalType: 'application/octet-stream' }),

  /** URL-encoded fields, with bracket and prototype keys, bad escapes and repeated keys. */
  form: (rng: Rng, ctx: BodyContext) => {
    // URLSearchParams, not encodeURIComponent: it encodes lone surrogates (as U+FFFD) instead of throwing.
    const fields = new URLSearchParams(Object.entries(plausibleObject(rng, ctx)).map(([k, v]) => [k, typeof v === 'string' ? v : String(JSON.stringify(v))]));
    const odd = rng.pick(['__proto__[isAdmin]=1', 'constructor[prototype][x]=1', 'toString=1', 'a[]=1&a[]=2', '%ZZ=%', '&&&==', 'email=a&email=b', '=x', `x=${'%41'.repeat(20_000)}`]);
    return { kind: 'form', bytes: Buffer.from(`${fields}&${odd}`), naturalType: 'application/x-www-form-urlencoded' };
  },

  /** A well-formed multipart body with text fields, a prototype-named field and a file part. */
  multipart: (rng: Rng, ctx: BodyContext) => {
    const boundary = `----fuzz${rng.word(12)}`;
    const fields = { ...plausibleObject(rng, ctx), [rng.pick(PROTOTYPE_KEYS)]: 'x' };
    const parts = Object.entries(fields).map(
      ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`,
    );
    const file = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="../../x.png"\r\nContent-Type: image/png\r\n\r\n`;
    const bytes = Buffer.concat([Buffer.from(parts.join('') + file), rng.bytes(rng.pick([10, 2048])), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    return { kind: 'multipart', bytes, naturalType: `multipart/form-data; boundary=${boundary}` };
  },

  /** Multipart that lies: no closing boundary, another boundary than declared, or no parts at all. */
  'multipart-broken': (rng: Rng) => {
    const boundary = `----fuzz${rng.word(12)}`;
    const variant = rng.pick(['unterminated', 'wrong-boundary', 'no-parts', 'header-only']);
    const text = {
      unterminated: `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\nnever-ends`,
      'wrong-boundary': `--other\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n--other--\r\n`,
      'no-parts': `--${boundary}--\r\n`,
      'header-only': `--${boundary}\r\nContent-Disposition: form-data\r\n`,
    }[variant]!;
    return { kind: `multipart-broken:${variant}`, bytes: Buffer.from(text), naturalType: `multipart/form-data; boundary=${boundary}` };
  },

  /** Over the 1 MiB body limit, sent chunked so no Content-Length announces it. */
  'oversize-chunked': (rng: Rng) => ({
    kind: 'oversize-chunked',
    bytes: Buffer.from(`{"a":"${'x'.repeat(1_048_576 + rng.int(1, 200_000))}"}`),
    naturalType: 'application/json',
    forceChunked: true,
  }),
} satisfies Record<string, (rng: Rng, ctx: BodyContext) => FuzzBody>;

export type BodyKind = keyof typeof BODY_KINDS;
export const ALL_BODY_KINDS = Object.keys(BODY_KINDS) as BodyKind[];
/**
 * Bodies no Action can take as valid input, whatever its schema (not parseable, or not an object): the
 * only ones sent with the shared member's cookie, so the fuzz never changes that account.
 */
export const INVALID_BODY_KINDS: BodyKind[] = ['json-invalid', 'json-truncated', 'json-deep-array', 'json-top-level', 'raw-nul', 'binary', 'oversize-chunked'];

// ---- Headers ----------------------------------------------------------------------------------------

/** Content types: the right ones, none, garbage and odd charsets. */
export const CONTENT_TYPES = [
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=bogus-42',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=nope',
  'text/plain',
  'text/plain; charset=utf-7',
  'application/octet-stream',
  'application/xml',
  'garbage',
  ';;;',
  'application/json, text/html',
  'APPLICATION/JSON',
] as const;

export const ACCEPTS = [undefined, 'application/json', 'text/html', '*/*', 'text/event-stream', 'application/json;q=0, */*;q=0.1', ';;;', 'image/webp'] as const;

/** Cookies a visitor may carry: none, garbage, and forged session cookies. */
export function visitorCookie(rng: Rng): string | undefined {
  return rng.weighted<() => string | undefined>([
    [() => undefined, 5],
    [() => 'agency.session_token=garbage', 2],
    [() => `agency.session_token=${rng.word(32)}.${rng.word(43)}`, 2],
    [() => `__Secure-agency.session_token=${rng.word(32)}`, 1],
    [() => 'agency.session_token=%E0%A4%A; agency.session_token=%', 1],
    [() => 'agency.session_token="quoted value"', 1],
    [() => ';;;=;=x; =; a', 1],
    [() => `big=${'c'.repeat(6_000)}`, 1],
    [() => Array.from({ length: 80 }, (_, i) => `c${i}=${rng.word(4)}`).join('; '), 1],
  ])();
}

/** A real session cookie, sometimes surrounded by junk or preceded by a forged duplicate. */
export function memberCookie(rng: Rng, real: string): string {
  return rng.weighted<() => string>([
    [() => real, 6],
    [() => `junk=${rng.word(6)}; ${real}; more=;;`, 1],
    [() => `agency.session_token=garbage; ${real}`, 1],
    [() => `${real}; agency.session_token=garbage`, 1],
  ])();
}

/** Origin header: this site, another site, 'null', or none (a non-browser client). */
export function originFor(rng: Rng, siteOrigin: string): string | undefined {
  return rng.weighted<string | undefined>([
    [siteOrigin, 8],
    [undefined, 4],
    ['https://evil.example', 2],
    ['null', 2],
    [`${siteOrigin}/`, 1],
    [siteOrigin.replace(/:\d+$/, ''), 1],
    ['::::', 1],
  ]);
}

/**
 * A client address for the rate limiter (the e2e server trusts x-real-ip): unique per request, so limits
 * never pile up on one address and never reach other specs. Rarely malformed (better-auth then uses a
 * shared bucket for invalid addresses, which no other spec uses).
 */
export function clientIp(rng: Rng): string {
  const octet = () => rng.int(1, 254);
  return rng.weighted<() => string>([
    [() => `10.${octet()}.${octet()}.${octet()}`, 16],
    [() => `fd00::${rng.int(1, 0xffff).toString(16)}:${rng.int(1, 0xffff).toString(16)}`, 2],
    [() => `192.0.2.1, 10.${octet()}.${octet()}.${octet()}`, 1],
    [() => `not-an-ip-${rng.word(6)}`, 1],
  ])();
}

/** Rare extra headers: overrides and encodings a framework might honour, a foreign Host. */
export function extraHeaders(rng: Rng): Record<string, string> {
  if (!rng.chance(0.15)) return {};
  return rng.pick<Record<string, string>>([
    { 'X-HTTP-Method-Override': 'DELETE' },
    { 'Content-Encoding': 'gzip' },
    { Host: 'evil.example' },
    { Host: 'localhost:1' },
    { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
    { Expect: '100-continue' },
    { Range: 'bytes=0-10,5-1' },
    { 'If-None-Match': '*' },
    { 'Accept-Encoding': 'gzip;q=1e999, br' },
    { 'Accept-Language': 'x'.repeat(4_000) },
  ]);
}
