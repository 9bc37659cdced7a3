/**
 * Zod for code that also runs in the browser, with the project's messages.
 *
 * - Messages: a rule without its own message says what is wrong in plain words ("Must be at most 200
 *   characters"), on the server and in the forms alike, so the Action's field errors read like the form's.
 *   The content importer passes `describeIssue` itself and gets the same words in lower case.
 * - Zod probes for `new Function` to compile fast parsers; the site's Content-Security-Policy forbids
 *   eval, so in the browser that probe is a CSP violation on every page that ships a schema. Jitless there
 *   (forms parse a handful of fields); the server keeps the compiled parsers.
 */
import { z } from 'astro/zod';

type Issue = z.core.$ZodRawIssue;

/** Short messages for people ("is required", "must be at most 200 characters"). */
export function describeIssue(issue: Issue): string | undefined {
  if (issue.input === undefined && issue.code !== 'unrecognized_keys') return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${issue.expected === 'array' ? 'a list' : issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}${issue.input === null ? ', not null' : ''}`;
    case 'too_big': {
      const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
      return `must be at most ${String(issue.maximum)}${unit}`;
    }
    case 'too_small': {
      if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty';
      if (issue.origin === 'array' && issue.minimum === 1) return 'must have at least one item';
      const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
      return `must be at least ${String(issue.minimum)}${unit}`;
    }
    case 'invalid_value':
      return `must be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`;
    default:
      return undefined;
  }
}

/** The same words as a sentence beside a form field: "Must not be empty". */
export function fieldMessage(issue: Issue): string | undefined {
  const text = describeIssue(issue);
  return text && text.charAt(0).toUpperCase() + text.slice(1);
}

z.config({ customError: fieldMessage });
if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
