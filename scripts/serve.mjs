// `npm run serve`: run an existing build (migrations run at start-up inside the server).
import { spawn } from 'node:child_process';
import { SERVER_ENV, SERVER_NODE_ARGS } from './server-process.mjs';

const child = spawn(process.execPath, SERVER_NODE_ARGS, { env: { ...process.env, ...SERVER_ENV }, stdio: 'inherit' });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
