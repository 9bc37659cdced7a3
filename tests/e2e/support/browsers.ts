/**
 * Which Chromium the specs drive (decision 062). Chromium's headless shell when the machine has it (Debian's
 * chromium-headless-shell): half the CPU of the full browser's headless mode, which on two cores decides how
 * long the browser tests take. E2E_BROWSER_PATH names another. A spec that needs what only the full browser
 * has (desktop notifications) asks for FULL_CHROMIUM with `test.use(fullChromium)`; the website check's
 * Lighthouse also runs in it (start-server.mjs), as a production server runs it.
 */
import fs from 'node:fs';

export const FULL_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const BROWSER_PATH = process.env.E2E_BROWSER_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM);

export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

/** For `test.use(...)` at a spec file's top: its tests run in the full Chromium (a worker of their own). */
export const fullChromium = { launchOptions: { executablePath: FULL_CHROMIUM, args: BROWSER_ARGS } };
