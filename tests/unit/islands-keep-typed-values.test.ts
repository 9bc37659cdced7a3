/**
 * Every React island mounted with client:load, client:idle or client:visible whose code renders form fields
 * calls useKeepTypedValues (decision 053), so a new form island cannot forget what a visitor typed before it
 * hydrated. Read from the source: the .astro files that mount islands and each island's local imports.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** Islands whose imports render fields elsewhere while they render none themselves. */
const RENDERS_NO_FIELDS: Record<string, string> = {
  'features/auth/VerifyEmail.tsx': 'buttons only (imports the auth form pieces for Alert and SubmitButton)',
  'features/admin-leads/LeadSequencePanel.tsx': 'buttons only (imports the status line of the sequences editor)',
};

function resolveModule(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [base, `${base}.tsx`, `${base}.ts`, path.join(base, 'index.tsx'), path.join(base, 'index.ts')].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
}

/** The island's module and every script module it imports by a relative path, transitively. */
function moduleGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file) || !/\.tsx?$/.test(file)) return seen;
  seen.add(file);
  for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(/(?:from|import)\s+'(\.[^']+)'/g)) {
    const target = resolveModule(file, spec!);
    if (target) moduleGraph(target, seen);
  }
  return seen;
}

/** Each island mounted on the server: the component module an .astro file renders with a client directive. */
function islands(): string[] {
  const found = new Set<string>();
  for (const name of fs.readdirSync(SRC, { recursive: true }) as string[]) {
    if (!name.endsWith('.astro')) continue;
    const file = path.join(SRC, name);
    const text = fs.readFileSync(file, 'utf8');
    const imports = new Map([...text.matchAll(/import\s+(\w+)(?:\s*,\s*\{[^}]*\})?\s+from\s+'([^']+)'/g)].map((m) => [m[1]!, m[2]!]));
    for (const [, component] of text.matchAll(/<([A-Z]\w*)\s[^<]*?\bclient:(?:load|idle|visible)\b/g)) {
      const spec = imports.get(component!);
      const module = spec && resolveModule(file, spec);
      expect(module, `${name}: the module of <${component}>`).toBeTruthy();
      found.add(module!);
    }
  }
  return [...found].map((f) => path.relative(SRC, f)).sort();
}

const read = (file: string) => fs.readFileSync(file, 'utf8');
const rendersFields = (file: string) => /<(input|textarea|select)\b/.test(read(file));
const keepsTyped = (file: string) => !file.endsWith('keep-typed-values.ts') && /\buseKeepTypedValues\(/.test(read(file));

describe('form islands', () => {
  const all = islands();
  const withFields = all.filter((island) => [...moduleGraph(path.join(SRC, island))].some(rendersFields));

  it('are found where the pages mount them', () => {
    expect(all).toEqual(expect.arrayContaining(['features/auth/AuthPage.tsx', 'features/free-audit/AuditForm.tsx', 'features/dashboard/ProfileForm.tsx', 'features/admin-services/ServiceEditor.tsx']));
    expect(withFields.length).toBeGreaterThan(20);
  });

  it('keep what was typed before they hydrated', () => {
    const forgetting = withFields.filter((island) => !(island in RENDERS_NO_FIELDS) && ![...moduleGraph(path.join(SRC, island))].some(keepsTyped));
    expect(forgetting).toEqual([]);
  });

  it('named as rendering no fields still import field code and still do not call the hook (else the entry is stale)', () => {
    for (const island of Object.keys(RENDERS_NO_FIELDS)) {
      const graph = [...moduleGraph(path.join(SRC, island))];
      expect(all, island).toContain(island);
      expect(rendersFields(path.join(SRC, island)), `${island} renders fields itself`).toBe(false);
      expect(graph.some(rendersFields) && !graph.some(keepsTyped), island).toBe(true);
    }
  });
});
