/** Why a media library call was refused: a code of the storage catalogue (its HTTP status) and a message for the admin. */
import { STORAGE_STATUS, type MediaUsage, type StorageErrorCode } from '../../../shared/media-library';

export class MediaLibraryError extends Error {
  readonly status: number;
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    /** storage/in-use: every place that still shows the image. */
    readonly usage: readonly MediaUsage[] = [],
  ) {
    super(message);
    this.name = 'MediaLibraryError';
    this.status = STORAGE_STATUS[code];
  }
}
