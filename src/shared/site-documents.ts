/**
 * The site-wide documents an admin edits besides the content records: the site texts, the landing page
 * layout, the SEO entries, the chat settings and the general settings. Names shared by the server (activity
 * log, Actions) and the editors.
 */
import { fieldErrorsByPath } from './schemas/catalog';

/** The activity log's entity types of these documents. */
export const DOCUMENT_TYPES = ['site-content', 'landing', 'seo', 'chat-settings', 'general-settings'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const isDocumentType = (type: string): type is DocumentType => (DOCUMENT_TYPES as readonly string[]).includes(type);

const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

/**
 * Zod issues → messages by field path ("hero.rotatingPhrases.2", "business.latitude"), written as the
 * sentence shown beside the field: the shared schemas' own messages are worded for the content file's
 * report ("must be a three-letter currency code"), the form starts them with a capital.
 */
export function documentFieldErrors(issues: Parameters<typeof fieldErrorsByPath>[0]): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [path, message] of Object.entries(fieldErrorsByPath(issues))) out[path] = sentence(message);
  return out;
}

interface SchemaDef {
  type: string;
  innerType?: SchemaNode;
  shape?: Record<string, SchemaNode>;
  element?: SchemaNode;
}
interface SchemaNode {
  _zod: { def: SchemaDef };
  maxLength?: number | null;
}

const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly']);

/**
 * The longest text a schema accepts at `path` (["hero", "rotatingPhrases", 0]), for the editors' character
 * counters; undefined where the schema sets no limit. Read from the schema, so a counter never disagrees
 * with the rule.
 */
export function maxLengthAt(schema: unknown, path: readonly (string | number)[]): number | undefined {
  let node = schema as SchemaNode | undefined;
  const unwrap = () => {
    while (node && WRAPPERS.has(node._zod.def.type)) node = node._zod.def.innerType;
  };
  for (const part of path) {
    unwrap();
    const def = node?._zod.def;
    node = def?.type === 'object' ? def.shape?.[String(part)] : def?.type === 'array' ? def.element : undefined;
  }
  unwrap();
  return node?._zod.def.type === 'string' ? (node.maxLength ?? undefined) : undefined;
}
