/**
 * Where an import keeps the images of a content file between reading them and writing them: a folder of
 * its own under DATA_DIR (owner-only, like everything there), one file per image named by its content
 * hash. A backup near the media quota holds hundreds of MB of images; kept here, the server's memory holds
 * one image at a time, however large the file. The folder is removed when the import ends, and a folder
 * left by a process that died mid-import is removed by a later import once it is a day old (several
 * processes may share DATA_DIR, each importing into its own folder).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_ID_PATTERN } from '../../../shared/content-bundle';
import { OWNER_ONLY_DIR, OWNER_ONLY_FILE } from '../../data-dir';

const STAGING_FOLDER = 'import-staging';

export interface MediaStaging {
  put(id: string, bytes: Buffer): Promise<void>;
  get(id: string): Promise<Buffer>;
  /** Removes the folder and everything in it. */
  dispose(): Promise<void>;
}

function fileFor(dir: string, id: string): string {
  // The id names a file: only ever the 32-hex-digit hash the reader has already checked.
  if (!MEDIA_ID_PATTERN.test(id)) throw new Error(`not a media id: ${id}`);
  return path.join(dir, id);
}

/** No import takes a day: a folder this old was left by a process that died. */
const ABANDONED_AFTER_MS = 24 * 60 * 60_000;

async function removeAbandoned(root: string, now: number) {
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const folder = path.join(root, entry.name);
    const stat = await fs.stat(folder).catch(() => undefined);
    if (stat && now - stat.mtimeMs > ABANDONED_AFTER_MS) await fs.rm(folder, { recursive: true, force: true });
  }
}

/** A new staging folder of this import's own. */
export async function openMediaStaging(dataDir: string, now = Date.now()): Promise<MediaStaging> {
  const root = path.join(dataDir, STAGING_FOLDER);
  await removeAbandoned(root, now);
  const dir = path.join(root, randomUUID());
  await fs.mkdir(dir, { recursive: true, mode: OWNER_ONLY_DIR });
  await fs.chmod(root, OWNER_ONLY_DIR);
  return {
    put: (id, bytes) => fs.writeFile(fileFor(dir, id), bytes, { mode: OWNER_ONLY_FILE }),
    get: (id) => fs.readFile(fileFor(dir, id)),
    dispose: () => fs.rm(dir, { recursive: true, force: true }),
  };
}
