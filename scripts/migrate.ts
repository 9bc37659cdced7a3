/**
 * `npm start` runs this in its own short-lived process before the server: creating and migrating a new
 * PGlite database costs ~600 MB that the process never gives back, so the server must not do it itself.
 */
import { seedDemoContentIfFresh } from '../src/server/seed';
import { runWithDatabase } from './cli';

await runWithDatabase(async ({ cfg }) => {
  if (cfg.SEED_DEMO_CONTENT) {
    const seeded = await seedDemoContentIfFresh();
    if (seeded) console.log('Seeded the demo content (set SEED_DEMO_CONTENT=false to start empty).');
  }
  console.log(`Database ready (${cfg.DATABASE_URL ? 'PostgreSQL' : `embedded, in ${cfg.dataDir}`}).`);
});
