/**
 * `npm run create-admin -- someone@example.com`: makes an existing account an admin (and marks its email
 * verified). The account signs up first through the site. With the embedded database, stop the server
 * first: the data folder is locked to one process.
 */
import { makeAdminByEmail, UsersError } from '../src/server/modules/users/service';
import { runWithDatabase, UsageError } from './cli';

const email = process.argv[2]?.trim();

await runWithDatabase(async () => {
  if (!email || process.argv.length > 3) throw new UsageError('Usage: npm run create-admin -- someone@example.com');
  try {
    const user = await makeAdminByEmail(email);
    console.log(`${user.email} is now an admin.`);
  } catch (err) {
    if (err instanceof UsersError && err.code === 'NOT_FOUND') {
      throw new UsageError(`No account with the email ${email}. Sign up on the site first, then run this again.`);
    }
    throw err;
  }
});
