/**
 * What the admin overview (/admin) and the backup page show about the site's content: real counts only.
 * Visits, sign-ups and leads come with the analytics and leads modules, not from here.
 */
import { countContent, type ContentCounts } from './repository';

export type { ContentCounts } from './repository';

export const contentCounts = (): Promise<ContentCounts> => countContent();
