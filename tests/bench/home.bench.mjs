/**
 * Home rendering bench (product goal: a 1,000-host list renders at 4× CPU throttling in
 * Chromium with first render ≤ 150 ms and no long task while scrolling). Builds
 * tests/bench/home.html in production mode into .tmp/bench-home, serves it, loads it RUNS times
 * in a fresh page (median first render), then scrolls the list end to end on the last runs and
 * reports long tasks, DOM size and rendered cards.
 *
 * Run alone with `node --import tsx tests/bench/home.bench.mjs` (tsx: it takes the Chromium flags
 * from playwright.config.ts); `npm run bench` runs it after the chat bench. A missed goal is
 * reported, not failed; a crash (build, page error) exits non-zero.
 */
import { chromium } from 'playwright-core';
import { chromiumArgs } from '../../playwright.config.ts';
import { ensureChromium } from '../../scripts/chromium.mjs';
import { CPU_THROTTLE, GOAL, RUNS, VIEWPORT, build, load, busyBefore, busyNote, machineSpeed, median, ms, serve, speedNote } from './driver.mjs';

const OUT_DIR = '.tmp/bench-home';
/** Each scroll runs on a freshly loaded page (one of the last runs). */
const SCROLLS = [
  // Each step is some four screens: every step shows cards never seen before (a fling or a scrollbar drag).
  { label: 'top → bottom, flinging', steps: 120 },
  // Reading down, a row or two per step.
  { label: 'top → bottom, reading', steps: 400 },
];

async function main() {
  const busy = await busyBefore();
  build('tests/bench/home.vite.config.ts', 'home bench');
  const server = await serve(OUT_DIR);
  const url = `http://127.0.0.1:${server.address().port}/home.html`;
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: chromiumArgs });
  const speed = { before: 0, after: 0 };
  const runs = [];
  const scrolls = [];
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
    speed.before = await machineSpeed(context);
    for (let run = 0; run < RUNS; run++) {
      const { page, errors, result } = await load(context, url);
      runs.push(result);
      const scroll = SCROLLS[run - (RUNS - SCROLLS.length)];
      if (scroll) {
        scrolls.push({ ...scroll, result: await page.evaluate((o) => window.bench.scroll(o), { steps: scroll.steps }) });
        if (errors.length) throw new Error(`${url}: ${errors.join('\n')}`);
      }
      await page.close();
    }
    speed.after = await machineSpeed(context);
  } finally {
    await browser.close();
    server.close();
  }
  report(runs, scrolls, busy, speed);
}

function report(runs, scrolls, busy, speed) {
  const first = median(runs.map((r) => r.firstRenderMs));
  console.log(`\nHome rendering (Chromium ${VIEWPORT.width}×${VIEWPORT.height}, CPU throttled ${CPU_THROTTLE}×, production build):`);
  const note = busyNote(busy);
  if (note) console.log(note);
  console.log(speedNote(speed.before, speed.after));
  const missed = [];
  if (first > GOAL.firstRenderMs) missed.push(`first render ${ms(first)} (goal ≤ ${GOAL.firstRenderMs} ms)`);
  console.log(`  1,000 hosts: first render ${ms(first)} (median of ${runs.map((r) => r.firstRenderMs.toFixed(0)).join(', ')} ms); `
    + `${runs[0].domNodes} DOM nodes and ${runs[0].rowsRendered}/${runs[0].rowsTotal} cards at first paint`);
  console.log(`  ${'scroll'.padEnd(40)} ${'long tasks'.padStart(13)}   ${'longest'.padStart(8)} ${'frame'.padStart(7)} ${'DOM'.padStart(5)} ${'cards/total'.padStart(12)}`);
  for (const { label, result: r } of scrolls) {
    const how = `${label}, ${r.steps} × ${(r.distance / r.steps).toFixed(0)} px`;
    const tasks = `${r.longTasks} / ${ms(r.longTaskMs)}${r.longTasks > GOAL.longTasks ? ' ✗' : '  '}`;
    console.log(`  ${how.padEnd(40)} ${tasks.padStart(15)} ${ms(r.longestTaskMs).padStart(8)} ${ms(r.longestFrameMs).padStart(7)} `
      + `${String(r.domNodes).padStart(5)} ${`${r.rowsRendered}/${r.rowsTotal}`.padStart(12)}`);
    if (r.longTasks > GOAL.longTasks) missed.push(`${label}: ${r.longTasks} long tasks, ${ms(r.longTaskMs)} in all (goal ${GOAL.longTasks})`);
  }
  console.log('\n  first render: from rendering the home (the app already up) to the paint of the first frame with its cards;'
    + '\n  long tasks (≥ 50 ms) while scrolling, the longest of them and of the frames, DOM nodes and cards after it.');
  console.log(`\nHome rendering goals (first render ≤ ${GOAL.firstRenderMs} ms, ${GOAL.longTasks} long tasks while scrolling): `
    + (missed.length ? `MISSED\n${missed.map((m) => `  ✗ ${m}`).join('\n')}` : 'within goal'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
