/** Runs in every test file: the file's reusable PGlite databases are closed after its tests (reused-databases.ts). */
import { afterAll } from 'vitest';
import { closeReusedDatabases } from './reused-databases';

afterAll(closeReusedDatabases);
