/**
 * A public page that moved (an admin renamed a slug or a URL name) keeps answering at its old path with a
 * 301 to the new one. Detail pages call this before they answer 404.
 */
import { logger } from '../../logger';
import { findRedirect } from './repository';

export { addRedirect } from './repository';

/** Where an old path now lives, or undefined. A failed read is logged and treated as "no redirect". */
export async function movedTo(path: string): Promise<string | undefined> {
  try {
    return await findRedirect(path);
  } catch (err) {
    logger.error({ err, path }, 'redirect lookup failed');
    return undefined;
  }
}
