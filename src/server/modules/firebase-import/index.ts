/** Firestore documents → this site's import (docs/firebase-import.md). Server-only; no firebase-admin here. */
export { firestoreToBundle, type FirebaseImport, type MapOptions } from './map-documents';
export { convertDocumentData, toJsonValue, type JsonObject, type JsonValue } from './firestore-values';
export { formatImportProblem, type FirestoreDoc, type FirestoreSource, type ImportProblem } from './source';
export { pageTimeId, type ImportedPageTime, type ImportedUser } from './users';
