/**
 * Related checks of the website audit, read side by side (issue 38): a check that passes and a related one
 * that warns or fails must never rest on the same thing. `contradictions` lists every place where they do,
 * as readable lines, so a test can expect `[]` and show what went wrong when it is not.
 *  - viewport ↔ font-size, tap-targets: sizes on a page phones shrink mean nothing, so those two are not
 *    judged when the viewport fails;
 *  - broken-links ↔ cta-above-fold, contact-form, lead-magnet: a button or form that passes must not lead to
 *    an address the broken-links check lists;
 *  - large-images ↔ image-formats: the formats check must not pass over a large picture in an old or
 *    uncompressed format;
 *  - robots-txt ↔ noindex, https ↔ hsts / mixed-content / http-redirects: the pass must not contradict the
 *    failure it depends on;
 *  - and for every pair: an address cited by the failing one is never cited by the passing one.
 */
import type { CheckResult, CheckStatus } from '../../src/server/modules/site-audit/findings';
import type { FetchedResource, SiteSnapshot } from '../../src/server/modules/site-audit/snapshot';

export const RELATED_PAIRS: readonly (readonly [string, string])[] = [
  ['viewport', 'font-size'],
  ['viewport', 'tap-targets'],
  ['broken-links', 'cta-above-fold'],
  ['broken-links', 'contact-form'],
  ['broken-links', 'lead-magnet'],
  ['large-images', 'image-formats'],
  ['large-images', 'page-weight'],
  ['robots-txt', 'noindex'],
  ['robots-txt', 'sitemap'],
  ['https', 'hsts'],
  ['https', 'mixed-content'],
  ['https', 'http-redirects'],
];

const failing = (status: CheckStatus | undefined) => status === 'warn' || status === 'fail';

/** Addresses a line of evidence names: whole URLs and the site's paths ("/img/team.bmp"); "/" alone says nothing. */
function addressesIn(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s'",)]+|(?<=^|[\s'(])\/[\w\-./%~?=&@]+/g) ?? [];
  return found.map((address) => address.replace(/[.,;:]+$/, '')).filter((address) => address.length > 1);
}

/** The paths the broken-links check lists as broken ("404 Not Found /contact (linked from /)" → "/contact"). */
function brokenPaths(brokenLinks: CheckResult | undefined): Set<string> {
  const paths = new Set<string>();
  if (brokenLinks?.status !== 'fail') return paths;
  for (const line of brokenLinks.evidence) {
    const match = /\s(\S+) \(linked from /.exec(line);
    if (match) paths.add(match[1]!);
  }
  return paths;
}

/** How the checks name a site's address: the path (and query) for the site's own. */
function labelOf(url: string, snapshot: SiteSnapshot): string {
  const parsed = new URL(url);
  return parsed.host === new URL(snapshot.home.url).host ? parsed.pathname + parsed.search : url;
}

/** The home page's links with this visible text, as the checks label their targets. */
function linkTargetsWithText(snapshot: SiteSnapshot, text: string): string[] {
  const html = snapshot.home.html ?? '';
  const targets: string[] = [];
  for (const match of html.matchAll(/<a\b[^>]*?\bhref\s*=\s*["']([^"']*)["'][^>]*>([\s\S]*?)<\/a>/gi)) {
    const shown = match[2]!.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
    if (shown !== text) continue;
    try {
      targets.push(labelOf(new URL(match[1]!.trim(), snapshot.home.url).href.replace(/#.*$/, ''), snapshot));
    } catch {
      // Not an address: nothing to compare.
    }
  }
  return targets;
}

const MODERN = /^image\/(webp|avif|svg\+xml)$/;

/** The fetched picture a line of the large-images check names ("1.4 MB /img/team.bmp"). */
function resourceByLabel(snapshot: SiteSnapshot, label: string): FetchedResource | undefined {
  return snapshot.resources.find((resource) => labelOf(resource.url, snapshot) === label);
}

/** Every contradiction between related checks, as a line saying which checks and what they share. */
export function contradictions(checks: readonly CheckResult[], snapshot: SiteSnapshot): string[] {
  const byId = new Map(checks.map((check) => [check.id, check]));
  const found: string[] = [];
  const status = (id: string) => byId.get(id)?.status;
  const evidence = (id: string) => byId.get(id)?.evidence.join('\n') ?? '';

  // Generic: the passing one never names an address the failing one names.
  for (const [a, b] of RELATED_PAIRS) {
    for (const [passed, failed] of [
      [a, b],
      [b, a],
    ] as const) {
      if (status(passed) !== 'pass' || !failing(status(failed))) continue;
      // broken-links also names the pages the links are on ("linked from /contact"): only the broken ones count.
      const cited = failed === 'broken-links' ? brokenPaths(byId.get(failed)) : new Set(addressesIn(evidence(failed)));
      for (const address of addressesIn(evidence(passed))) {
        if (cited.has(address)) found.push(`${passed} passes and ${failed} ${status(failed)}s, both citing ${address}`);
      }
    }
  }

  // viewport ↔ font-size, tap-targets
  if (status('viewport') === 'fail') {
    for (const id of ['font-size', 'tap-targets']) {
      if (status(id) !== 'skipped') found.push(`viewport fails, yet ${id} is judged (${status(id)}) on the shrunken page`);
      else if (!/viewport/i.test(evidence(id))) found.push(`${id} is not judged but does not say it is because of the viewport`);
    }
  }

  // broken-links ↔ the buttons and forms that pass
  const broken = brokenPaths(byId.get('broken-links'));
  const cta = byId.get('cta-above-fold');
  if (cta?.status === 'pass') {
    const text = /^'(.*?)' near the top/.exec(cta.evidence[0] ?? '')?.[1];
    for (const target of text ? linkTargetsWithText(snapshot, text) : []) {
      if (broken.has(target)) found.push(`cta-above-fold passes on '${text}', which leads to ${target}, a broken link`);
    }
  }
  for (const [id, pattern] of [
    ['contact-form', /\(sends to (\S+)\)/],
    ['lead-magnet', /, sending to (\S+)$/],
  ] as const) {
    const target = status(id) === 'pass' ? pattern.exec(evidence(id))?.[1] : undefined;
    if (target && broken.has(target)) found.push(`${id} passes with a form sending to ${target}, a broken link`);
  }

  // large-images ↔ image-formats
  if (status('image-formats') === 'pass' && status('large-images') === 'fail') {
    for (const line of byId.get('large-images')!.evidence) {
      const label = /^(?:at least )?[\d.]+ (?:bytes?|KB|MB) (\S+)$/.exec(line)?.[1];
      const image = label ? resourceByLabel(snapshot, label) : undefined;
      const type = image ? (image.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() : '';
      if (image && !MODERN.test(type)) found.push(`image-formats passes over ${label}, a large picture in ${type || 'an unknown format'}`);
    }
  }

  // robots-txt ↔ noindex
  if (status('robots-txt') === 'fail' && status('noindex') === 'pass' && !/robots\.txt/.test(evidence('noindex'))) {
    found.push('noindex passes ("search engines may list the site") while robots.txt shuts them out, without saying so');
  }

  // https ↔ what only applies over https
  if (status('https') === 'fail') {
    for (const id of ['hsts', 'mixed-content']) {
      if (status(id) === 'pass') found.push(`https fails, yet ${id} passes`);
    }
  }
  return found;
}
