/**
 * First-run demo content. A fresh install seeds realistic services, packages, demos and articles (with
 * generated images) so the site looks complete before the owner writes anything. It happens once: a
 * marker remembers it, so an owner who deletes the demo content never gets it back on the next start.
 * Instances starting together on one PostgreSQL database take turns (the site-wide seed lock): one seeds,
 * the others find the marker.
 */
import { dbHandle } from '../db';
import { inProcessLocks } from '../db/advisory-lock';
import { importContentBundle } from '../modules/content-transfer';
import { readConfigDocument, writeConfigDocument } from '../modules/site/repository';
import { buildDemoBundle } from './demo-bundle';
import { hasAnyContent } from './repository';

const SEEDED_MARKER = 'demoContentSeeded';

/**
 * Seeds the demo content on a database that has never been seeded and holds no content yet (an install
 * that imported its own content first is left alone). Returns true when demo content was written.
 */
export function seedDemoContentIfFresh(now: Date = new Date()): Promise<boolean> {
  return (dbHandle()?.locks ?? inProcessLocks).runExclusive('seed', () => seedIfFresh(now));
}

async function seedIfFresh(now: Date): Promise<boolean> {
  if (await readConfigDocument(SEEDED_MARKER)) return false;
  let seeded = false;
  if (!(await hasAnyContent())) {
    const result = await importContentBundle(await buildDemoBundle(now), now);
    if (!result.ok) {
      // The demo bundle is ours: a problem here is a bug, and the start must stop loudly.
      throw new Error(`The demo content failed validation:\n${result.problems.map((p) => `${p.path}: ${p.message}`).join('\n')}`);
    }
    seeded = true;
  }
  await writeConfigDocument(SEEDED_MARKER, { at: now.toISOString(), demoContent: seeded });
  return seeded;
}
