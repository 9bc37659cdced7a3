/** Content export/import in format version 1 (docs/content-format.md). */
export { exportContentBundle, openContentFile, type ContentFileStream } from './export';
export { describeImportSummary, importContentBundle, importContentFile, type ImportResult, type ImportSummary } from './import';
export type { Problem } from './validate';
export { exportAsAdmin, importAsAdmin, IMPORT_ENTITY_TYPE, type AdminImportResult } from './admin';
export { readContentFile, type ReadOutcome, type StagedContentFile } from './read-file';
export { openMediaStaging, type MediaStaging } from './media-staging';
