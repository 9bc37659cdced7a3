/**
 * A guard in front of the HTML parser. The HTML parsing rules make some steps cost as much as the nesting
 * depth (parse5 scans its stack of open elements for each <div>), so a hostile page of a million nested
 * <div>s would take hours to parse. Browsers stop nesting at 512 levels and real pages stay well under 100;
 * this estimates the depth in one linear pass over the tags and says where it passes MAX_NESTING, so the
 * parser only reads the page up to there. The estimate errs on the deep side: an end tag only closes what
 * it clearly closes. At the limit, the parser's cost per tag stays bounded (a 5 MB page of <div>s at depth
 * 250 parses in about 3 s).
 */

export const MAX_NESTING = 256;

/** Elements that never have content. */
const VOID = new Set('area base br col embed hr img input link meta source track wbr param keygen frame basefont bgsound'.split(' '));
/** Elements the parser closes by itself when a sibling starts (or never nests): not counted. */
const SELF_CLOSING_SIBLINGS = new Set('p li dt dd option optgroup tr td th thead tbody tfoot colgroup caption rb rt rtc rp html head body'.split(' '));
/** Elements whose content is text up to their end tag, never markup. */
const RAW_TEXT = new Set('script style textarea title xmp iframe noembed noframes noscript'.split(' '));
/** Elements an end tag of an element below them cannot reach past (the parser's scope boundaries). */
const SCOPE_BOUNDARIES = new Set('applet caption html table td th marquee object template button'.split(' '));
/** Elements an end tag of an ordinary inline element cannot reach past. */
const BLOCKS = new Set(
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup listing main menu nav ol pre search section select summary ul'.split(' '),
);
const INLINE_BARRIERS = new Set([...SCOPE_BOUNDARIES, ...BLOCKS]);
/** How far down the stack an end tag looks for its element; beyond that it is taken as a stray end tag. */
const END_TAG_REACH = 64;

const TAG = /<(\/?)([a-zA-Z][^\s/>]*)/y;

/**
 * Formatting elements: when something else closes them, the parser remembers them and opens them again
 * around the next text, so they still count towards the depth until their own end tag.
 */
const FORMATTING = new Set('a b big code em font i nobr s small strike strong tt u'.split(' '));
const isForeignRoot = (name: string) => name === 'svg' || name === 'math';

/** Where, as an index into `html`, the estimated nesting first passes `limit`; undefined when it never does. */
export function nestingCut(html: string, limit = MAX_NESTING): number | undefined {
  const open: string[] = [];
  /** Formatting elements closed by another element's end tag, by name. */
  const lingering = new Map<string, number>();
  let lingeringCount = 0;
  let foreign = 0;
  let at = 0;
  for (;;) {
    const start = html.indexOf('<', at);
    if (start === -1) return undefined;
    if (html.startsWith('<!--', start)) {
      const end = html.indexOf('-->', start + 4);
      if (end === -1) return undefined;
      at = end + 3;
      continue;
    }
    const end = html.indexOf('>', start + 1);
    if (end === -1) return undefined;
    at = end + 1;
    TAG.lastIndex = start;
    const match = TAG.exec(html);
    if (!match) continue;
    const name = match[2]!.toLowerCase();
    if (match[1]) {
      const closed = closeElement(open, name);
      if (!closed && (lingering.get(name) ?? 0) > 0) {
        lingering.set(name, lingering.get(name)! - 1);
        lingeringCount -= 1;
      }
      for (const [index, element] of (closed ?? []).entries()) {
        if (isForeignRoot(element)) foreign -= 1;
        if (index > 0 && FORMATTING.has(element)) {
          lingering.set(element, (lingering.get(element) ?? 0) + 1);
          lingeringCount += 1;
        }
      }
      continue;
    }
    if (name === 'plaintext') return undefined;
    if (RAW_TEXT.has(name)) {
      at = endOfRawText(html, name, at);
      if (at === -1) return undefined;
      continue;
    }
    // Inside SVG or MathML "<path/>" closes itself; in HTML the slash is ignored and "<div/>" stays open.
    if (VOID.has(name) || SELF_CLOSING_SIBLINGS.has(name) || (foreign > 0 && html[end - 1] === '/')) continue;
    if (isForeignRoot(name)) foreign += 1;
    open.push(name);
    if (open.length + lingeringCount > limit) return start;
  }
}

/**
 * Pops up to the nearest open `name` the end tag can reach and returns what it closed (that element first,
 * then those that were inside it); undefined for a stray end tag, which changes nothing.
 */
function closeElement(open: string[], name: string): string[] | undefined {
  const barriers = BLOCKS.has(name) || SCOPE_BOUNDARIES.has(name) ? SCOPE_BOUNDARIES : INLINE_BARRIERS;
  const lowest = Math.max(0, open.length - END_TAG_REACH);
  for (let i = open.length - 1; i >= lowest; i--) {
    if (open[i] === name) return open.splice(i);
    if (barriers.has(open[i]!)) return undefined;
  }
  return undefined;
}

const rawTextEnds = new Map([...RAW_TEXT].map((name) => [name, new RegExp(`</${name}[\\s/>]`, 'gi')]));

/** Where the raw text of an element that started at `from` ends (after its end tag), -1 when it never does. */
function endOfRawText(html: string, name: string, from: number): number {
  const pattern = rawTextEnds.get(name)!;
  pattern.lastIndex = from;
  const found = pattern.exec(html);
  return found ? found.index + found[0].length : -1;
}
