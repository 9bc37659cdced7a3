/** Why an admin content write was refused: a stable code for the Action's status, a message for the admin. */
import { formatInZone } from '../../../shared/dates';

export type ContentErrorCode = 'NOT_FOUND' | 'INVALID' | 'CONFLICT' | 'UNKNOWN_TYPE';

export class ContentError extends Error {
  constructor(
    readonly code: ContentErrorCode,
    message: string,
    /** INVALID: messages by field path ("slug", "features.0.title"), shown beside the fields. */
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ContentError';
  }
}

export const notFound = (label: string) => new ContentError('NOT_FOUND', `This ${label} no longer exists: someone may have deleted it.`);

export const invalid = (fieldErrors: Record<string, string>) =>
  new ContentError('INVALID', 'Please correct the highlighted fields.', fieldErrors);

/** Who saved a record or document last, and the site's time zone to say when in (the admin's header names it). */
export interface LastSave {
  email: string;
  at: Date;
  timeZone: string;
}

/** "09:30": when the last save was, on the site's wall clock. */
export const savedAtTime = (by: LastSave) => formatInZone(by.at, by.timeZone, 'hour-minute');

/** Another admin saved the same record since this one was opened: nothing is overwritten silently. */
export const conflict = (label: string, by: LastSave | undefined) =>
  new ContentError(
    'CONFLICT',
    by
      ? `${by.email} saved this ${label} at ${savedAtTime(by)}, after you opened it. Your changes are kept here: reload to see theirs, then apply yours again.`
      : `Someone saved this ${label} after you opened it. Your changes are kept here: reload to see theirs, then apply yours again.`,
  );
