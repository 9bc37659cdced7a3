/**
 * A tiny DOM builder for the panel. Strings become text nodes and attributes go through setAttribute: no
 * markup is ever parsed, so whatever a visitor, an admin or the assistant wrote shows as text.
 */
type Child = Node | string | null | undefined | false;
export type Attrs = Record<string, string | boolean | undefined>;

function setAttrs(node: Element, attrs: Attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : value);
  }
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children) if (child) node.append(child);
  return node;
}

/** A decorative 20×20 icon from one path. */
export function icon(d: string, cls = 'h-5 w-5'): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  setAttrs(svg, { viewBox: '0 0 20 20', 'aria-hidden': 'true', class: `${cls} fill-current`, focusable: 'false' });
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', d);
  svg.append(path);
  return svg;
}

export const ICONS = {
  close: 'M4.3 4.3a1 1 0 0 1 1.4 0L10 8.6l4.3-4.3a1 1 0 1 1 1.4 1.4L11.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4L10 11.4l-4.3 4.3a1 1 0 0 1-1.4-1.4L8.6 10 4.3 5.7a1 1 0 0 1 0-1.4Z',
  send: 'M2.7 2.3a1 1 0 0 1 1.1-.1l13.5 7a1 1 0 0 1 0 1.6l-13.5 7A1 1 0 0 1 2.4 16.7L4.2 11H10a1 1 0 1 0 0-2H4.2L2.4 3.3a1 1 0 0 1 .3-1Z',
  person: 'M10 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0 1 1 0 0 1-1 1H4a1 1 0 0 1-1-1Z',
} as const;

/** Elements Tab can reach inside `root`, in order, skipping hidden ones. */
export function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), [tabindex="0"]')].filter(
    (node) => node.getClientRects().length > 0,
  );
}
