/** Astro Actions, one file per domain. Each authorizes itself; the middleware guard is the first fence. */
import { account } from './account';
import { admin } from './admin';
import { users } from './users';

export const server = { account, users, admin };
