// `npm run serve`: run an existing build (migrations run at start-up inside the server), restarted after a
// crash by the supervisor like `npm start`.
import { SERVER_ENV, SERVER_NODE_ARGS } from './server-process.mjs';
import { supervise } from './supervise.mjs';

supervise({ args: SERVER_NODE_ARGS, env: { ...process.env, ...SERVER_ENV } });
