/**
 * Walking a parsed page without recursion, so no check depends on how deep a hostile page nests (cheerio's
 * own `.text()` recurses and would overflow the stack on deep enough markup). Every helper here visits each
 * node at most once, so every check stays linear in the size of the page.
 */
import type { AnyNode, Element, Text } from 'domhandler';

export type { Element };

function isElement(node: AnyNode): node is Element {
  return 'attribs' in node;
}

function isText(node: AnyNode): node is Text {
  return node.nodeType === 3;
}

/** Elements whose content a visitor never reads as text. */
export const HIDDEN_CONTENT = new Set(['script', 'style', 'noscript', 'template']);

function childrenOf(node: AnyNode): readonly AnyNode[] {
  return 'children' in node ? node.children : [];
}

/** What a visitor's `visit` returns for an element: 'skip' leaves its content out, 'stop' ends the walk. */
export type WalkAnswer = void | 'skip' | 'stop';

/**
 * Every node under `root` in document order (root excluded). `enter` sees elements and may skip their
 * content or stop the walk; `text` sees text nodes.
 */
export function walk(root: AnyNode, visit: { enter?: (el: Element) => WalkAnswer; text?: (text: string) => WalkAnswer }): void {
  const stack: AnyNode[] = [...childrenOf(root)].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) {
      if (visit.text?.(node.data) === 'stop') return;
      continue;
    }
    if (!isElement(node)) continue;
    const answer = visit.enter?.(node);
    if (answer === 'stop') return;
    if (answer === 'skip') continue;
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/**
 * The readable text under `node` (scripts and styles left out), at most about `maxChars` characters and
 * `maxNodes` nodes visited: evidence needs a few words, and bounding the walk keeps checks that read the
 * text of many (possibly nested) elements linear.
 */
export function textOf(node: AnyNode, maxChars = 2_000, maxNodes = 500): string {
  const parts: string[] = [];
  let length = 0;
  let nodes = 0;
  walk(node, {
    enter: (el) => {
      if (++nodes > maxNodes) return 'stop';
      return HIDDEN_CONTENT.has(el.name) ? 'skip' : undefined;
    },
    text: (data) => {
      parts.push(data);
      length += data.length;
      return ++nodes > maxNodes || length >= maxChars ? 'stop' : undefined;
    },
  });
  return parts.join('');
}

/** The raw text inside an element whose content is not markup (<title>, <script>, <style>). */
export function rawText(el: Element): string {
  return el.children.map((child) => (isText(child) ? child.data : '')).join('');
}

/** An attribute's value, or '' when absent (names are lower-case in parsed HTML). */
export function attr(el: Element, name: string): string {
  return el.attribs[name] ?? '';
}

/** The space-separated tokens of rel="…", lower-cased. */
export function relTokens(el: Element): string[] {
  return attr(el, 'rel').toLowerCase().split(/\s+/).filter(Boolean);
}

/** The element just before `el` among its siblings (white space and comments between are fine, text is not). */
export function previousElement(el: Element): Element | undefined {
  for (let node = el.prev; node; node = node.prev) {
    if (isElement(node)) return node;
    if (isText(node) && node.data.trim() !== '') return undefined;
  }
  return undefined;
}

/** An element of the HTML document itself, not one inside inline SVG or MathML (which has its own <title>, <a>). */
export function isHtml(el: Element): boolean {
  return !el.namespace || el.namespace === 'http://www.w3.org/1999/xhtml';
}
