import { logger } from '../logger';

/**
 * The seed's "logged only" failures: a read that fails is logged and the page falls back (empty list,
 * default order, built-in FAQs) instead of failing the whole page.
 */
export async function loggedOnly<T>(what: string, read: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await read();
  } catch (err) {
    logger.error({ err, what }, `${what} failed to load; using the fallback`);
    return fallback;
  }
}
