// Where the server listens, and one clear line when it cannot. Every launcher (npm start, npm run serve,
// server.mjs) checks the port before it builds, migrates or opens the database: a port held by another
// program then costs the user one line, not minutes of work and a stack trace.
import net from 'node:net';

/**
 * PORT and HOST as the app's config reads them (src/server/config.ts; defaults 4321 and localhost).
 * Undefined when either is invalid: the config check then stops the process naming the variable.
 */
export function listenAddress(env = process.env) {
  const port = Number(env.PORT ?? 4321);
  const host = env.HOST ?? 'localhost';
  if (!Number.isInteger(port) || port < 1 || port > 65535 || host === '') return undefined;
  return { port, host };
}

/** The line a failed listen prints, instead of Node's unhandled 'error' stack. */
export function listenFailure(err, { port, host }) {
  if (err.code === 'EADDRINUSE') {
    return `Port ${port} on ${host} is already in use: stop the program using it or set PORT to another port.`;
  }
  return `Cannot listen on port ${port} on ${host}: ${err.message}`;
}

/** Listens on the address and lets go of it again; on failure prints the one line and exits 1. */
export async function exitUnlessListenable(address = listenAddress()) {
  if (!address) return;
  const error = await new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', resolve);
    probe.listen(address.port, address.host, () => probe.close(() => resolve(undefined)));
  });
  if (error) {
    console.error(listenFailure(error, address));
    process.exit(1);
  }
}
