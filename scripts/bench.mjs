/**
 * `npm run bench`: builds the app and prints the gzip size of the JavaScript each first
 * screen needs (entry + static imports + the route's own chunk and its static imports)
 * and of every lazy chunk. Goal (issue 2): first screen ≤ 150 KiB gzip.
 * It also checks that no first screen holds RTC code (the local WebRTC adapter, the Agora
 * SDK: issue 5 loads them only when a call starts).
 * Then the chat rendering bench (tests/bench/chat.bench.mjs): 200 sessions and a
 * 10,000-message conversation in Chromium at 4× CPU throttling; the home rendering bench
 * (tests/bench/home.bench.mjs): 1,000 hosts at 4× CPU throttling; the Lighthouse 12 mobile
 * performance score of `/` against the built app (tests/bench/home.lighthouse.mjs); and the
 * call setup bench (tests/bench/call.bench.mjs): tap → remote first frame next to raw WebRTC.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const GOAL_KIB = 150;
const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'));
const gz = new Map();
const gzipKiB = (file) => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(join('dist', file)), { level: 9 }).length / 1024);
  return gz.get(file);
};
const rawKiB = (file) => readFileSync(join('dist', file)).length / 1024;

/** The JS files a manifest entry loads before it runs: itself and its static imports, transitively. */
function staticClosure(key, into = new Set()) {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const dep of chunk.imports ?? []) staticClosure(dep, into);
  return into;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
// The entry (src/boot.ts) imports the app (src/main.tsx) as soon as the page is painted, and the
// app imports the cipher and the machines before it renders; index.html loads or preloads all of
// them (vite.config.ts preloadApp): what it names is the start's.
const html = readFileSync('dist/index.html', 'utf8');
const named = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]));
for (const key of [entryKey, 'src/main.tsx']) {
  if (!named.has(manifest[key].file)) throw new Error(`index.html does not load ${key}`);
}
const entryFiles = new Set();
for (const [key, chunk] of Object.entries(manifest)) if (named.has(chunk.file)) staticClosure(key, entryFiles);
const sum = (files) => [...files].filter((f) => f.endsWith('.js')).reduce((n, f) => n + gzipKiB(f), 0);

const firstScreens = {
  '/login (signed out)': 'src/screens/login/LoginScreen.tsx',
  '/ (host home)': 'src/screens/home/HomeScreen.tsx',
  '/newsRestricted (non-host)': 'src/screens/news/NewsRestrictedScreen.tsx',
};

console.log('\nFirst screen JavaScript (gzip):');
let worst = 0;
for (const [label, src] of Object.entries(firstScreens)) {
  const files = staticClosure(src, new Set(entryFiles));
  const kib = sum(files);
  worst = Math.max(worst, kib);
  console.log(`  ${label.padEnd(28)} ${kib.toFixed(1).padStart(7)} KiB  (${files.size} files)`);
}
console.log(`  entry alone                  ${sum(entryFiles).toFixed(1).padStart(7)} KiB`);

console.log('\nLazy chunks (raw / gzip KiB):');
const lazy = Object.values(manifest)
  .filter((c) => c.file.endsWith('.js') && !entryFiles.has(c.file))
  .sort((a, b) => gzipKiB(b.file) - gzipKiB(a.file));
for (const c of lazy) {
  console.log(`  ${c.file.padEnd(52)} ${rawKiB(c.file).toFixed(1).padStart(7)} ${gzipKiB(c.file).toFixed(1).padStart(7)}`);
}
console.log(`\nLargest first screen: ${worst.toFixed(1)} KiB gzip (goal ≤ ${GOAL_KIB} KiB): ${worst <= GOAL_KIB ? 'within goal' : 'OVER GOAL'}`);

// RTC code: the browser's peer connection (the local adapter) and the Agora SDK's own names.
const RTC_MARKERS = [/RTCPeerConnection/, /AgoraRTC/, /agora-rtc-sdk/];
const rtcFiles = (files) => [...files].filter((f) => f.endsWith('.js') && RTC_MARKERS.some((m) => m.test(readFileSync(join('dist', f), 'utf8'))));
console.log('\nRTC code (RTCPeerConnection, AgoraRTC) in the first screens:');
let rtcInFirst = false;
for (const [label, src] of Object.entries(firstScreens)) {
  const found = rtcFiles(staticClosure(src, new Set(entryFiles)));
  rtcInFirst ||= found.length > 0;
  console.log(`  ${label.padEnd(28)} ${found.length ? `FOUND in ${found.join(', ')}` : 'none'}`);
}
console.log(`  (it is in the lazy chunks ${rtcFiles(lazy.map((c) => c.file)).join(', ') || '(none)'})`);
console.log(`First screens without RTC code: ${rtcInFirst ? 'NO' : 'yes'}`);

// The browser benches take the Chromium flags from playwright.config.ts, hence tsx.
for (const bench of [
  'tests/bench/chat.bench.mjs', 'tests/bench/home.bench.mjs', 'tests/bench/home.lighthouse.mjs', 'tests/bench/call.bench.mjs',
]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', bench], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
