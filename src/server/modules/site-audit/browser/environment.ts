/**
 * The environments of the website check's process and of its browser (decision 056): named variables only,
 * never the server's whole environment. The server's holds AUTH_SECRET, DATABASE_URL with its password,
 * SMTP_URL, LLM_API_KEY, the webhook secrets and the CDN tokens; a renderer exploit on a page a stranger
 * chose would read them from its own process. Nothing here is a secret, and a variable not named here is
 * not passed on.
 */

/** What the check process runs on: finding its programs (chrt, setpriv, sh), its temporary files, the locale, logging. */
const CHECK_PROCESS_NAMES = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LANGUAGE', 'TZ', 'NODE_ENV', 'LOG_LEVEL', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'];
const LOCALE = /^LC_[A-Z]+$/;

function pick(env: NodeJS.ProcessEnv, passes: (name: string) => boolean): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && passes(entry[0])));
}

export function checkProcessEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return pick(env, (name) => CHECK_PROCESS_NAMES.includes(name) || LOCALE.test(name));
}

/** The system's programs only (Debian's chromium launcher is a shell script calling grep, tr, findmnt). */
const BROWSER_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * The browser's: the system's PATH, its profile folder as home and for its temporary and cached files (it
 * may write nowhere else of ours), and the locale and time zone the server has.
 */
export function browserEnv(env: NodeJS.ProcessEnv, profileDir: string): Record<string, string> {
  return {
    ...pick(env, (name) => name === 'LANG' || name === 'LANGUAGE' || name === 'TZ' || LOCALE.test(name)),
    PATH: BROWSER_PATH,
    HOME: profileDir,
    TMPDIR: profileDir,
    XDG_CONFIG_HOME: `${profileDir}/.config`,
    XDG_CACHE_HOME: `${profileDir}/.cache`,
  };
}
