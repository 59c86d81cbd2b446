/**
 * Finds Debian's Chromium for the browser tests (CHROME_PATH, /usr/bin/chromium, ...).
 * If none is found and we are root, installs Debian's `chromium` with apt-get; otherwise
 * fails with a clear message. Playwright's own browser download does not work here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

export function findChromium() {
  if (process.env.CHROME_PATH && existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    console.log('Chromium not found: installing Debian\'s chromium with apt-get ...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
    const installed = findChromium();
    if (installed) return installed;
  }
  throw new Error(
    'No Chromium found. Install Debian\'s chromium (sudo apt-get install -y chromium) or set CHROME_PATH to a Chromium binary.',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(ensureChromium());
}
