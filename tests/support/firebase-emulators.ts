/**
 * Offline Firebase emulators for the importer's tests: firebase-tools' Auth emulator (pure Node, started as
 * a child process) and @firestore-emulator/server's Firestore (in-process; the official one needs Java and
 * a download). Every port is picked free: vitest runs test files in parallel workers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FirestoreServer } from '@firestore-emulator/server';
import { freePort } from '../e2e/support/free-port';

export interface FirebaseEmulators {
  /** `demo-…`: firebase-tools treats demo projects as offline-only and never asks for credentials. */
  projectId: string;
  /**
   * What firebase-admin reads to talk to the emulators (set it before initializing an app).
   * METADATA_SERVER_DETECTION=none: else google-auth-library probes the GCE metadata server (offline: a
   * MetadataLookupWarning and a delay).
   */
  env: { FIRESTORE_EMULATOR_HOST: string; FIREBASE_AUTH_EMULATOR_HOST: string; METADATA_SERVER_DETECTION: 'none'; GCLOUD_PROJECT?: never };
  firestore: FirestoreServer;
  stop(): Promise<void>;
}

const FIREBASE_BIN = fileURLToPath(new URL('../../node_modules/.bin/firebase', import.meta.url));
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** Resolves when `child` has exited, at once when it already had. */
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

/** Signals the child's whole process group (it was spawned detached, so it leads one). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}

async function startAuthEmulator(projectId: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fb-auth-emu-'));
  const [auth, hub, logging] = [await freePort(), await freePort(), await freePort()];
  const host = '127.0.0.1';
  fs.writeFileSync(
    path.join(dir, 'firebase.json'),
    JSON.stringify({ emulators: { auth: { host, port: auth }, hub: { host, port: hub }, logging: { host, port: logging }, ui: { enabled: false } } }),
  );
  const child = spawn(FIREBASE_BIN, ['emulators:start', '--only', 'auth', '--project', projectId], {
    cwd: dir,
    // Own process group, so stop() reaches every process firebase-tools starts. TMPDIR keeps its hub
    // locator file inside `dir`; the rest keeps it from reaching for the network or the user's config.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TMPDIR: dir, HOME: dir, NO_UPDATE_NOTIFIER: '1', FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true', CI: 'true' },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  // A spawn failure (no firebase-tools installed) is reported with the output below, not thrown apart.
  child.on('error', (err) => (output += `\n${err.message}`));

  const stop = async () => {
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_GRACE_MS);
    await exited(child);
    clearTimeout(timer);
    // firebase-tools' shutdown may leave helpers a moment longer than the leader: make sure none stays.
    killGroup(child, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answers(`http://${host}:${auth}/`))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`The Firebase Auth emulator did not start (exit code ${child.exitCode}). Its output:\n${output}`);
    }
    await sleep(100);
  }
  return { host: `${host}:${auth}`, stop };
}

export async function startFirebaseEmulators(): Promise<FirebaseEmulators> {
  const projectId = `demo-${crypto.randomBytes(4).toString('hex')}`;
  const firestore = new FirestoreServer();
  const firestorePort = await freePort();
  await firestore.start(firestorePort);
  let auth;
  try {
    auth = await startAuthEmulator(projectId);
  } catch (err) {
    firestore.stop();
    throw err;
  }
  let stopped: Promise<void> | undefined;
  return {
    projectId,
    env: { FIRESTORE_EMULATOR_HOST: `127.0.0.1:${firestorePort}`, FIREBASE_AUTH_EMULATOR_HOST: auth.host, METADATA_SERVER_DETECTION: 'none' },
    firestore,
    // Safe to call twice (a test that checks the ports, then afterAll).
    stop: () =>
      (stopped ??= (async () => {
        firestore.stop();
        await auth.stop();
      })()),
  };
}

/**
 * A service-account key file as Firebase's console downloads it, for `--service-account`. `overrides`
 * change fields; a field set to undefined is left out (for the bad-input tests).
 */
export function writeServiceAccountKey(dir: string, projectId: string, overrides: Record<string, unknown> = {}): string {
  const { privateKey } = crypto.generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const clientEmail = `firebase-adminsdk-${crypto.randomBytes(3).toString('hex').slice(0, 5)}@${projectId}.iam.gserviceaccount.com`;
  const key = {
    type: 'service_account',
    project_id: projectId,
    private_key_id: crypto.randomBytes(20).toString('hex'),
    private_key: privateKey,
    client_email: clientEmail,
    client_id: String(100_000_000_000_000_000_000n + BigInt(crypto.randomInt(1e9))),
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(clientEmail)}`,
    universe_domain: 'googleapis.com',
    ...overrides,
  };
  const file = path.join(dir, `${projectId}-firebase-adminsdk.json`);
  // JSON.stringify leaves out undefined values: that is how an override omits a field.
  fs.writeFileSync(file, JSON.stringify(key, null, 2), { mode: 0o600 });
  return file;
}
