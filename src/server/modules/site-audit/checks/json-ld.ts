/**
 * The page's JSON-LD (structured data), parsed once per page: the blocks that do not parse, and every typed
 * node inside the ones that do, @graph arrays and nested values included (a LocalBusiness's
 * aggregateRating is a node too). The walk is iterative: parsed JSON can nest deeper than the stack.
 */
import { cutText } from '../text';
import type { ParsedPage } from './context';
import { perPage } from './define';
import { attr, rawText } from './dom';

export interface JsonLdNode {
  /** Its @type values without a schema.org prefix ("LocalBusiness"). */
  types: string[];
  node: Record<string, unknown>;
}

export interface JsonLd {
  /** How many application/ld+json scripts the page has. */
  blocks: number;
  /** Why blocks did not parse: "Block 2: Unexpected token …". */
  errors: string[];
  nodes: JsonLdNode[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function typesOf(node: Record<string, unknown>): string[] {
  const raw = node['@type'];
  const values = Array.isArray(raw) ? raw : [raw];
  return values.filter((value): value is string => typeof value === 'string').map((type) => type.trim().replace(/^(https?:\/\/schema\.org\/|schema:)/i, ''));
}

function typedNodes(root: unknown, into: JsonLdNode[]): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
    } else if (isRecord(value)) {
      const types = typesOf(value);
      if (types.length > 0) into.push({ types, node: value });
      const children = Object.values(value);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
}

export const jsonLdOf = perPage((page: ParsedPage): JsonLd => {
  const scripts = page.elements('script').filter((el) => attr(el, 'type').split(';')[0]!.trim().toLowerCase() === 'application/ld+json');
  const result: JsonLd = { blocks: scripts.length, errors: [], nodes: [] };
  scripts.forEach((el, index) => {
    let data: unknown;
    try {
      data = JSON.parse(rawText(el));
    } catch (error) {
      result.errors.push(`Block ${index + 1}: ${cutText(error instanceof Error ? error.message : String(error), 120)}`);
      return;
    }
    typedNodes(data, result.nodes);
  });
  return result;
});
