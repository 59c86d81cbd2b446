/**
 * Chat rendering bench (product goal: 200 sessions and a 10,000-message conversation render
 * at 4× CPU throttling in Chromium with first render ≤ 150 ms and no long task while
 * scrolling). Builds tests/bench/chat.html in production mode into .tmp/bench-dist, serves it,
 * and for each scenario loads it RUNS times in a fresh page (median first render); on the last
 * pages it scrolls the list (end to end, and for the chat also reading back a few rows a step)
 * and reports long tasks, DOM size and rendered rows.
 *
 * Run alone with `node --import tsx tests/bench/chat.bench.mjs [chats|messages]` (tsx: it takes
 * the Chromium flags from playwright.config.ts); `npm run bench` runs it after the bundle report.
 * A missed goal is reported, not failed; a crash (build, page error) exits non-zero.
 */
import { chromium } from 'playwright-core';
import { chromiumArgs } from '../../playwright.config.ts';
import { ensureChromium } from '../../scripts/chromium.mjs';
import { CPU_THROTTLE, GOAL, RUNS, VIEWPORT, build, load, busyBefore, busyNote, machineSpeed, median, ms, serve, speedNote } from './driver.mjs';

const OUT_DIR = '.tmp/bench-dist';
/** Each scroll is done on a freshly loaded page (one of the last runs). */
const SCENARIOS = [
  { id: 'chats', label: 'Chats: 200 sessions', scrolls: [{ label: 'top → bottom', steps: 120 }] },
  {
    id: 'messages',
    label: 'Messages: 10,000',
    scrolls: [
      // Each step is some ten screens: every step shows rows never seen before (a fling or a scrollbar drag).
      { label: 'bottom → top', steps: 120 },
      // Reading back from the newest, a few rows per step (the chats list's pace).
      { label: 'reading up', steps: 120, stepPx: 120 },
    ],
  },
];

async function main() {
  const busy = await busyBefore();
  build('tests/bench/vite.config.ts', 'bench');
  const server = await serve(OUT_DIR);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: chromiumArgs });
  const speed = { before: 0, after: 0 };
  const results = [];
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
    speed.before = await machineSpeed(context);
    // `node --import tsx tests/bench/chat.bench.mjs messages` runs only that scenario.
    const only = process.argv.slice(2);
    for (const scenario of SCENARIOS.filter((s) => only.length === 0 || only.includes(s.id))) {
      const url = `${origin}/chat.html?scenario=${scenario.id}`;
      const runs = [];
      const scrolls = [];
      for (let run = 0; run < RUNS; run++) {
        const { page, errors, result } = await load(context, url, { wait: true });
        runs.push(result);
        const scroll = scenario.scrolls[run - (RUNS - scenario.scrolls.length)];
        if (scroll) {
          const { label: _, ...options } = scroll;
          scrolls.push({ ...scroll, result: await page.evaluate((o) => window.bench.scroll(o), options) });
          if (errors.length) throw new Error(`${url}: ${errors.join('\n')}`);
        }
        await page.close();
      }
      results.push({ scenario, runs, first: median(runs.map((r) => r.firstRenderMs)), scrolls });
    }
    speed.after = await machineSpeed(context);
  } finally {
    await browser.close();
    server.close();
  }
  report(results, busy, speed);
}

function report(results, busy, speed) {
  console.log(`\nChat rendering (Chromium ${VIEWPORT.width}×${VIEWPORT.height}, CPU throttled ${CPU_THROTTLE}×, production build):`);
  // Timings are only as quiet as the machine: say when something else was running.
  const note = busyNote(busy);
  if (note) console.log(note);
  console.log(speedNote(speed.before, speed.after));
  console.log(
    `  ${''.padEnd(20)} ${'first render'.padStart(12)}  ${'scroll'.padEnd(30)} ${'long tasks'.padStart(13)}   `
    + `${'longest'.padStart(8)} ${'DOM'.padStart(5)} ${'rows/total'.padStart(11)}`,
  );
  const missed = [];
  for (const { scenario, first, scrolls } of results) {
    if (first > GOAL.firstRenderMs) missed.push(`${scenario.label}: first render ${ms(first)} (goal ≤ ${GOAL.firstRenderMs} ms)`);
    scrolls.forEach(({ label, result: r }, i) => {
      const how = `${label}, ${r.steps} × ${(r.distance / r.steps).toFixed(0)} px`;
      const flag = first > GOAL.firstRenderMs && i === 0 ? ' ✗' : '  ';
      const tasks = `${r.longTasks} / ${ms(r.longTaskMs)}${r.longTasks > GOAL.longTasks ? ' ✗' : '  '}`;
      console.log(
        `  ${(i === 0 ? scenario.label : '').padEnd(20)} ${(i === 0 ? ms(first) : '').padStart(10)}${flag}  ${how.padEnd(30)} `
        + `${tasks.padStart(15)} ${ms(r.longestTaskMs).padStart(8)} ${String(r.domNodes).padStart(5)} `
        + `${`${r.rowsRendered}/${r.rowsTotal}`.padStart(11)}`,
      );
      if (r.longTasks > GOAL.longTasks) {
        missed.push(`${scenario.label}, ${label}: ${r.longTasks} long tasks, ${ms(r.longTaskMs)} in all (goal ${GOAL.longTasks})`);
      }
    });
  }
  console.log(
    '\n  first render: median of the runs, from rendering the screen (the app already up) to the paint of the first'
    + '\n  frame with its rows; long tasks (≥ 50 ms) while scrolling, the longest of them, DOM nodes and rows after it.',
  );
  for (const { scenario, runs } of results) {
    console.log(`  ${scenario.label.padEnd(20)} runs ${runs.map((r) => r.firstRenderMs.toFixed(0)).join(', ')} ms; `
      + `${runs[0].domNodes} DOM nodes and ${runs[0].rowsRendered}/${runs[0].rowsTotal} rows at first paint`);
  }
  console.log(`\nChat rendering goals (first render ≤ ${GOAL.firstRenderMs} ms, ${GOAL.longTasks} long tasks while scrolling): `
    + (missed.length ? `MISSED\n${missed.map((m) => `  ✗ ${m}`).join('\n')}` : 'within goal'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
