/**
 * Mobile: whether the home page is set up for phones. Without a browser, text size and tap targets are
 * judged from the markup only (inline styles and <style> blocks; stylesheet files are not read), so those
 * two only ever warn and say so; on a page phones do not lay out for their screen (see the viewport check)
 * they are not judged at all.
 */
import type { CheckResult } from '../findings';
import { limitLines, plural, quote, tidy } from '../text';
import type { AuditContext, ParsedPage } from './context';
import { fail, pageCheck, pass, runCategory, skip, warn, type CheckDefinition, type Verdict } from './define';
import { attr, previousElement, rawText, textOf, type Element } from './dom';
import { lighthouseAccessibility } from './lighthouse';

const FROM_MARKUP = 'Judged from the markup only (inline styles and <style> blocks; stylesheet files are not read)';

/** "width=device-width, initial-scale=1" as a map of lower-case keys. */
function viewportSettings(content: string): Map<string, string> {
  const settings = new Map<string, string>();
  for (const part of content.split(/[,;]/)) {
    const [key, value = ''] = part.split('=');
    if (key?.trim()) settings.set(key.trim().toLowerCase(), value.trim().toLowerCase());
  }
  return settings;
}

/**
 * The home page's viewport, judged for the viewport check and for the checks that only mean something on a
 * page laid out for phones (text size, tap targets): the one place that rule lives.
 */
function viewportOf(page: ParsedPage): Verdict {
  const meta = page.elements('meta').find((el) => attr(el, 'name').trim().toLowerCase() === 'viewport');
  if (!meta) return fail('No <meta name="viewport"> on the home page: phones show it as a shrunken desktop page');
  const content = attr(meta, 'content');
  const settings = viewportSettings(content);
  const seen = `<meta name="viewport" content=${quote(content)}>`;
  if (settings.get('width') !== 'device-width') {
    if (settings.has('width')) return fail(seen, 'A fixed width: phones shrink the page to fit it');
    return warn(seen, 'No width=device-width: some phones lay the page out wider than the screen');
  }
  const maximumScale = Number.parseFloat(settings.get('maximum-scale') ?? '');
  const blocksZoom = ['no', '0'].includes(settings.get('user-scalable') ?? '') || maximumScale < 2;
  if (blocksZoom) {
    return {
      ...warn(seen, 'Zooming is turned off or limited, so people with poor eyesight cannot enlarge the text'),
      fix: 'Remove user-scalable=no and maximum-scale from the viewport tag so visitors can zoom.',
    };
  }
  return pass(seen);
}

const VIEWPORT_TITLE = 'Made to fit phone screens';

/**
 * Why text size and tap targets cannot be judged on this page: phones do not lay it out for their screen
 * (no viewport tag, or a fixed width), so they show it shrunk and every size on it is shrunk with it.
 * Undefined when the page is laid out for phones.
 */
function notLaidOutForPhones(page: ParsedPage): string | undefined {
  if (viewportOf(page).status !== 'fail') return undefined;
  const declared = page.elements('meta').some((el) => attr(el, 'name').trim().toLowerCase() === 'viewport');
  const why = declared
    ? 'the viewport tag sets a fixed width, so phones shrink the whole page to fit it'
    : 'the page does not declare a viewport, so phones show it as a shrunken desktop page';
  return `Not judged: ${why} (see “${VIEWPORT_TITLE}”)`;
}

const viewport = pageCheck({
  id: 'viewport',
  title: VIEWPORT_TITLE,
  why: 'Without the viewport tag, phones show a shrunken desktop page that visitors must pinch and zoom to read; Google ranks such pages lower in mobile search.',
  fix: 'Have the site made mobile-friendly: a layout that adapts to small screens, and on every page the viewport tag (for your web person: <meta name="viewport" content="width=device-width, initial-scale=1"> in the <head>). Modern themes and site builders do both.',
  topic: 'website-care',
  judge: (ctx) => viewportOf(ctx.home),
});

/** CSS text without /* comments *\/ (by index: a regex could backtrack across a huge unclosed comment). */
function withoutComments(css: string): string {
  const parts: string[] = [];
  let from = 0;
  for (;;) {
    const start = css.indexOf('/*', from);
    if (start === -1) break;
    parts.push(css.slice(from, start));
    const end = css.indexOf('*/', start + 2);
    if (end === -1) return parts.join('');
    from = end + 2;
  }
  parts.push(css.slice(from));
  return parts.join('');
}

/** "selector { declarations }" pairs of a stylesheet, nested @media blocks flattened; linear in its length. */
function cssRules(css: string): { selector: string; declarations: string }[] {
  const rules: { selector: string; declarations: string }[] = [];
  for (const chunk of withoutComments(css).split('}')) {
    const open = chunk.lastIndexOf('{');
    if (open === -1) continue;
    const selector = chunk.slice(chunk.lastIndexOf('{', open - 1) + 1, open);
    rules.push({ selector, declarations: chunk.slice(open + 1) });
  }
  return rules;
}

/** The value of one property in "a: b; c: d" declarations (a style attribute or a rule's body). */
function cssValue(declarations: string, property: string): string | undefined {
  for (const declaration of declarations.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon !== -1 && declaration.slice(0, colon).trim().toLowerCase() === property) return declaration.slice(colon + 1).trim();
  }
  return undefined;
}

const PX_PER_UNIT: Record<string, number> = { px: 1, pt: 4 / 3, rem: 16, em: 16, '%': 0.16 };
const TINY_KEYWORDS = new Set(['xx-small', 'x-small']);

/** The size in CSS pixels (em and rem taken against the usual 16px), undefined when it cannot be told. */
function fontSizePx(value: string): number | undefined {
  const clean = value.replace(/!important/i, '').trim().toLowerCase();
  if (TINY_KEYWORDS.has(clean)) return 10;
  const match = /^(\d*\.?\d+)(px|pt|rem|em|%)$/.exec(clean);
  return match ? Number(match[1]) * PX_PER_UNIT[match[2]!]! : undefined;
}

const BODY_TEXT_TAGS = new Set(['html', 'body', 'p']);

/** A selector list that styles body text: one of its selectors ends in html, body or p ("p", ".intro p.small"). */
function stylesBodyText(selector: string): boolean {
  return selector.split(',').some((one) => {
    const last = one.trim().split(/[\s>+~]+/).pop() ?? '';
    return BODY_TEXT_TAGS.has(/^[a-z0-9]*/i.exec(last)![0].toLowerCase());
  });
}

function smallFontSizes(page: ParsedPage): string[] {
  const found: string[] = [];
  const isSmall = (value: string | undefined): value is string => value !== undefined && (fontSizePx(value) ?? Infinity) < 12;
  for (const tag of BODY_TEXT_TAGS) {
    for (const el of page.elements(tag)) {
      const size = cssValue(attr(el, 'style'), 'font-size');
      if (isSmall(size)) found.push(`<${tag} style=${quote(attr(el, 'style'), 80)}>`);
    }
  }
  for (const style of page.elements('style')) {
    for (const { selector, declarations } of cssRules(rawText(style))) {
      const size = cssValue(declarations, 'font-size');
      if (isSmall(size) && stylesBodyText(selector)) found.push(`${quote(selector.trim(), 80)} { font-size: ${quote(size, 40)} } in a <style> block`);
    }
  }
  return found;
}

const fontSize = pageCheck({
  id: 'font-size',
  title: 'Text is large enough to read on a phone',
  why: 'Body text under 12 pixels is hard to read on a phone without zooming; Google flags it as not mobile-friendly.',
  fix: 'Set body text to at least 16px (never below 12px) in the site\'s theme or style settings.',
  topic: 'website-care',
  judge(ctx) {
    const notLaidOut = notLaidOutForPhones(ctx.home);
    if (notLaidOut) return skip(notLaidOut);
    const small = smallFontSizes(ctx.home);
    if (small.length === 0) return pass('No body text styled below 12px', FROM_MARKUP);
    return warn(`Body text below 12px: ${plural(small.length, 'style')}`, ...limitLines(small), FROM_MARKUP);
  },
});

const TAPPABLE = ['a', 'button', 'input'];
const TAPPABLE_INPUTS = new Set(['submit', 'button', 'image', 'checkbox', 'radio']);
const MIN_TAP_PX = 24;
/** This many links in a row showing one or two characters each ("1 2 3 4 5 6") are hard to hit with a finger. */
const CROWDED_RUN = 6;

/** A width or height set in pixels in a style attribute; other units cannot be judged without a browser. */
function inlinePx(style: string, property: 'width' | 'height'): number | undefined {
  const match = /^(\d*\.?\d+)px$/i.exec((cssValue(style, property) ?? '').replace(/!important/i, '').trim());
  return match ? Number(match[1]) : undefined;
}

function tinyTargets(page: ParsedPage): string[] {
  const found: string[] = [];
  for (const tag of TAPPABLE) {
    for (const el of page.elements(tag)) {
      const style = attr(el, 'style');
      if (!style || (tag === 'input' && !TAPPABLE_INPUTS.has(attr(el, 'type').toLowerCase()))) continue;
      const sizes = [inlinePx(style, 'width'), inlinePx(style, 'height')].filter((px): px is number => px !== undefined);
      if (sizes.some((px) => px < MIN_TAP_PX)) found.push(`<${tag} style=${quote(style, 80)}> ${quote(textOf(el, 80), 40)}`);
    }
  }
  return found;
}

function crowdedLinks(page: ParsedPage): string[] {
  const found: string[] = [];
  const runs = new Map<Element, Element[]>();
  const isShort = (el: Element) => {
    const length = tidy(textOf(el, 10)).length;
    return length > 0 && length <= 2;
  };
  for (const link of page.elements('a')) {
    if (!isShort(link)) continue;
    const before = previousElement(link);
    const run = (before && runs.get(before)) ?? [];
    run.push(link);
    runs.set(link, run);
    if (run.length === CROWDED_RUN) found.push(`${CROWDED_RUN} or more links in a row showing one or two characters: ${run.map((el) => quote(textOf(el, 10))).join(' ')}…`);
  }
  return found;
}

const tapTargets = pageCheck({
  id: 'tap-targets',
  title: 'Buttons and links are easy to tap',
  why: 'Links and buttons smaller than a fingertip (about 24 pixels) or crowded together make visitors tap the wrong thing and give up.',
  fix: 'Make buttons and links at least 24×24 pixels (48 is better) with some space between them, especially menus and page numbers.',
  topic: 'website-care',
  judge(ctx) {
    const notLaidOut = notLaidOutForPhones(ctx.home);
    if (notLaidOut) return skip(notLaidOut);
    const found = [...tinyTargets(ctx.home), ...crowdedLinks(ctx.home)];
    if (found.length === 0) return pass(`No link or button sized under ${MIN_TAP_PX}px or crowded together`, FROM_MARKUP);
    return warn(`${plural(found.length, 'place')} where targets may be too small to tap:`, ...limitLines(found), FROM_MARKUP);
  },
});

export const MOBILE_CHECKS: readonly CheckDefinition[] = [viewport, fontSize, tapTargets, lighthouseAccessibility];

export function mobileChecks(ctx: AuditContext): CheckResult[] {
  return runCategory('mobile', MOBILE_CHECKS, ctx);
}
