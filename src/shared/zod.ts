/**
 * Zod for code that also runs in the browser. Zod probes for `new Function` to compile fast parsers; the
 * site's Content-Security-Policy forbids eval, so in the browser that probe is a CSP violation reported on
 * every page that ships a schema. Jitless there (the forms parse a handful of fields); the server keeps
 * the compiled parsers.
 */
import { z } from 'astro/zod';

if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
