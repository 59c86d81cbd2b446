/**
 * Call setup bench (issue 5: call tap → remote first frame within 1.4× of raw WebRTC on
 * loopback). In one run, alternating, CALLS calls of each:
 *
 * - app: the built app on the reference server (a child process with its own database), a
 *   host on Home and a user on /talk in two browser contexts with the fake 720p camera. The
 *   user taps 'Video call …'; the host's page accepts as soon as the ring shows (an in-page
 *   observer, no test round trip); the time runs until the caller's 'Their video' element
 *   presents its first frame (requestVideoFrameCallback). Then the user ends the call and
 *   both close the end screen.
 * - baseline: the least a call needs, in two pages of two contexts: the caller's camera, a
 *   ring through a relay, the callee's camera, one offer/answer with ICE candidates through
 *   the same relay (a WebSocket relay in this process), the same media settings as the app's
 *   local adapter (720p, VP9 preferred, resolution kept), until the caller's video element
 *   presents the callee's first frame.
 *
 * Both clocks are the caller page's `performance.now()`, from the tap (or `call()`) to the
 * frame callback. Prints both medians and their ratio, and the app's steps (ring shown at
 * the host, connected at the caller). A missed goal is reported, not failed; a crash exits
 * non-zero. Run alone with `node --import tsx tests/bench/call.bench.mjs` (after a build:
 * it serves `dist`, building it when missing); `npm run bench` runs it after the bundle report.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { WebSocketServer } from 'ws';
import { chromiumArgs } from '../../playwright.config.ts';
import { ensureChromium } from '../../scripts/chromium.mjs';
import { busyBefore, busyNote, median, ms } from './driver.mjs';

const CALLS = Number(process.env.CALL_BENCH_CALLS ?? 12);
const GOAL_RATIO = 1.4;
const VIEWPORT = { width: 360, height: 640 };
const DB_DIR = '.tmp/bench-call';
const CALL_TIMEOUT_MS = 30_000;
/** CALL_BENCH_TRACE=1: also prints when each step happened in each page (listeners and wrappers only). */
const TRACE = process.env.CALL_BENCH_TRACE === '1';
/**
 * CALL_BENCH_TIMELINE=1: a Chrome trace of the whole browser during the fourth call of each
 * kind (saved in .tmp for chrome://tracing or Perfetto), and the CPU each thread of the
 * browser used from the tap to the caller's first frame, the app's call beside the baseline's.
 */
const TIMELINE = process.env.CALL_BENCH_TIMELINE === '1';
/** With CALL_BENCH_TRACE, CALL_BENCH_FIRST=1 prints the steps of the first call alone (the one that loads the call's code). */
const FIRST = process.env.CALL_BENCH_FIRST === '1';
/** CALL_BENCH_PROFILE=host|user: a CPU profile of that page during the fourth call, its busiest functions printed. */
const PROFILE = process.env.CALL_BENCH_PROFILE;


/** A free TCP port on loopback. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The reference server in a child process, on its own database; resolves once it answers. */
async function startServer(port) {
  rmSync(DB_DIR, { recursive: true, force: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), DB_PATH: `${DB_DIR}/app.db`, DIST_DIR: 'dist', SEED_HOSTS: '4', SEED_USERS: '4' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the reference server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/shell`)).ok) return { base, child };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error('the reference server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function postJson(url, body) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

/** Opens the app as `userId` at `path`, with the open parameters the shell would hand it. */
async function openApp(page, base, userId, path) {
  const url = new URL(path, base);
  for (const [key, value] of Object.entries(await postJson(`${base}/shell/api/open`, { userId }))) url.searchParams.set(key, value);
  await page.goto(url.href);
}

/** In the host's page: accept every call as soon as it rings, noting when the ring showed. */
function autoAccept() {
  const bench = (window.__bench = { rings: [] });
  const accept = () => {
    const dialog = document.querySelector('[role="dialog"][aria-label="Call"][data-phase="ringing"]');
    if (!dialog || dialog.dataset.benchAccepted) return;
    const button = [...dialog.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Accept');
    if (!button) return;
    dialog.dataset.benchAccepted = '1';
    bench.rings.push(performance.timeOrigin + performance.now());
    button.click();
  };
  new MutationObserver(accept).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-phase'] });
}

/**
 * In the user's page, before the app loads: notes when its peer connection connects (ICE and
 * DTLS) and when the peer's first video packets arrive (the remote track unmutes), to tell the
 * media's own time from the app's around it. Listeners only: the connection is unchanged.
 */
function watchPeerConnections() {
  const Native = window.RTCPeerConnection;
  const marks = (window.__rtcMarks = []);
  window.RTCPeerConnection = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('connectionstatechange', () => {
        if (this.connectionState === 'connected') marks.push(['pcConnected', performance.now()]);
      });
      this.addEventListener('track', ({ track }) => {
        if (track.kind === 'video') track.addEventListener('unmute', () => marks.push(['firstPackets', performance.now()]), { once: true });
      });
    }
  };
}

/**
 * With CALL_BENCH_TRACE, in every page before it loads: notes (epoch ms) camera opening, fetches,
 * hub frames, peer connection steps and long tasks. Wrappers and listeners only.
 */
function traceSteps() {
  const steps = (window.__trace = []);
  const at = () => performance.timeOrigin + performance.now();
  const mark = (label, when = at()) => steps.push([label, when]);
  const devices = navigator.mediaDevices;
  if (devices) {
    const open = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      const what = ['audio', 'video'].filter((kind) => constraints?.[kind]).join('+');
      mark(`camera asked (${what})`);
      try {
        return await open(constraints);
      } finally {
        mark(`camera open (${what})`);
      }
    };
  }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const name = new URL(e.name).pathname.split('/').slice(-2).join('/');
      mark(`${e.initiatorType} ${name} start`, performance.timeOrigin + e.startTime);
      mark(`${e.initiatorType} ${name} end`, performance.timeOrigin + e.responseEnd);
    }
  }).observe({ type: 'resource' });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) mark(`long task ${Math.round(e.duration)} ms`, performance.timeOrigin + e.startTime);
    }).observe({ type: 'longtask' });
  } catch {
    // No long task timing.
  }
  const summary = (data) => {
    try {
      const m = JSON.parse(String(data));
      const relay = m.data ?? m.push?.data;
      const what = [m.op, m.push?.type, m.kind, relay?.kind, relay?.description?.type ?? m.description?.type, m.signal?.action ?? m.push?.signal?.action]
        .filter((x) => x !== undefined);
      return what.length ? what.join(' ') : m.ok !== undefined ? 'reply' : '?';
    } catch {
      return '?';
    }
  };
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(url, protocols) {
      super(url, protocols);
      const path = new URL(url, location.href).pathname.split('/').pop();
      this.tracePath = path;
      mark(`ws ${path} new`);
      this.addEventListener('open', () => mark(`ws ${path} open`));
      this.addEventListener('message', (e) => {
        const s = summary(e.data);
        if (s !== 'reply') mark(`ws ${path} < ${s}`);
      });
    }
    send(data) {
      mark(`ws ${this.tracePath} > ${summary(data)}`);
      super.send(data);
    }
  };
  const Native = window.RTCPeerConnection;
  const links = (window.__traceLinks = []);
  window.RTCPeerConnection = class extends Native {
    constructor(...args) {
      super(...args);
      links.push(this);
      mark('pc new');
      this.addEventListener('icegatheringstatechange', () => mark(`pc gathering ${this.iceGatheringState}`));
      this.addEventListener('iceconnectionstatechange', () => mark(`pc ice ${this.iceConnectionState}`));
      this.addEventListener('connectionstatechange', () => mark(`pc ${this.connectionState}`));
      this.addEventListener('track', ({ track }) => {
        mark(`pc track ${track.kind}`);
        track.addEventListener('unmute', () => mark(`pc unmute ${track.kind}`), { once: true });
      });
    }
    async createOffer(...a) { mark('pc createOffer'); return super.createOffer(...a); }
    async createAnswer(...a) { mark('pc createAnswer'); return super.createAnswer(...a); }
    async setLocalDescription(d) { mark(`pc setLocal ${d?.type ?? ''}`); const r = await super.setLocalDescription(d); mark('pc setLocal done'); this.traceDtls(); return r; }
    async setRemoteDescription(d) { mark(`pc setRemote ${d?.type}`); const r = await super.setRemoteDescription(d); mark('pc setRemote done'); this.traceDtls(); return r; }
    /** The DTLS transport's states (handshake begun, done), once there is one. */
    traceDtls() {
      const transport = [...this.getSenders(), ...this.getReceivers()].find((s) => s.transport)?.transport;
      if (!transport || transport.traced) return;
      transport.traced = true;
      transport.addEventListener('statechange', () => mark(`pc dtls ${transport.state}`));
    }
  };
  const observe = () => new MutationObserver(() => {
    const phase = document.querySelector('[role="dialog"][aria-label="Call"]')?.getAttribute('data-phase') ?? 'none';
    if (phase !== window.__tracePhase) {
      window.__tracePhase = phase;
      mark(`screen ${phase}`);
    }
  }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-phase'] });
  if (document.documentElement) observe();
}

/** With CALL_BENCH_TRACE: each page's video RTP counters on its open peer connections (key frames, PLI/FIR, NACK). */
async function videoCounters(pages) {
  const lines = [];
  for (const [name, page] of Object.entries(pages)) {
    lines.push(`${name}: ${await page.evaluate(async () => {
      const out = [];
      const links = window.__traceLinks ?? [];
      // Closed ones (earlier calls) are let go.
      links.splice(0, links.length, ...links.filter((pc) => pc.connectionState !== 'closed'));
      for (const pc of links) {
        for (const s of (await pc.getStats()).values()) {
          if (s.kind !== 'video') continue;
          if (s.type === 'inbound-rtp') out.push(`in: key ${s.keyFramesDecoded} of ${s.framesDecoded} decoded, pli ${s.pliCount}, fir ${s.firCount}, nack ${s.nackCount}, lost ${s.packetsLost}`);
          if (s.type === 'outbound-rtp') out.push(`out: key ${s.keyFramesEncoded} of ${s.framesEncoded} encoded, pli ${s.pliCount}, fir ${s.firCount}, nack ${s.nackCount}, ${s.frameWidth}x${s.frameHeight} ${s.encoderImplementation ?? ''} limited ${s.qualityLimitationReason}`);
        }
      }
      return out.join('; ');
    })}`);
  }
  return lines.join(' | ');
}

const TIMELINE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'blink.user_timing', 'v8', 'webrtc', 'media'];

/**
 * With CALL_BENCH_TIMELINE: the CPU time (ms) of each thread of the browser's processes from
 * the caller's 'bench-call' mark (set as the call starts) for `frameMs`: top-level tasks'
 * thread time, so a task waiting for a core counts only what it ran.
 */
function cpuByThread(trace, frameMs) {
  const events = trace.traceEvents ?? trace;
  const names = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'process_name') names.set(`${e.pid}`, e.args.name);
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const start = events.find((e) => e.name === 'bench-call')?.ts;
  if (start === undefined) throw new Error('no bench-call mark in the timeline');
  const end = start + frameMs * 1000;
  const tasks = events.filter((e) => e.ph === 'X' && /RunTask/.test(e.name) && e.ts >= start && e.ts <= end).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const cpu = new Map();
  const until = new Map();
  for (const e of tasks) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ts < (until.get(thread) ?? 0)) continue; // nested in a task counted already
    until.set(thread, e.ts + (e.dur ?? 0));
    const key = `${e.pid} ${names.get(`${e.pid}`) ?? ''} / ${names.get(thread) ?? e.tid}`;
    cpu.set(key, (cpu.get(key) ?? 0) + (e.tdur ?? 0) / 1000);
  }
  return cpu;
}

/**
 * Runs `call` (resolving with its `frame`, ms from the tap) under a trace of the whole browser,
 * saves the trace as .tmp/call-timeline-`kind`.json and prints each thread's CPU (`cpuByThread`).
 */
async function underTimeline(browser, kind, call) {
  await browser.startTracing(undefined, { categories: TIMELINE_CATEGORIES });
  const result = await call();
  const trace = JSON.parse((await browser.stopTracing()).toString());
  const file = `.tmp/call-timeline-${kind}.json`;
  writeFileSync(file, JSON.stringify(trace));
  printCpu(`${kind} call 4 (trace in ${file})`, cpuByThread(trace, result.frame), result.frame);
  return result;
}

function printCpu(title, cpu, frameMs) {
  const rows = [...cpu].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`\n${title}: browser CPU from the tap to the first frame (${frameMs.toFixed(0)} ms, ${(2 * frameMs).toFixed(0)} core-ms on 2 cores): ${total.toFixed(0)} ms`);
  for (const [thread, ms] of rows.filter(([, ms]) => ms >= 3)) console.log(`  ${ms.toFixed(0).padStart(6)}  ${thread}`);
}

/** The traces of `pages` since `from` (epoch ms), as [page: label, ms after `from`], cleared after. */
async function takeTraces(pages, from) {
  const rows = [];
  for (const [name, page] of Object.entries(pages)) {
    const steps = await page.evaluate(() => (window.__trace ?? []).splice(0));
    for (const [label, when] of steps) if (when >= from - 1) rows.push([`${name}: ${label}`, when - from]);
  }
  return rows.sort((a, b) => a[1] - b[1]);
}

/** Each step's median time (first occurrence per call), in order. */
function traceReport(title, calls) {
  const seen = new Map();
  for (const rows of calls) {
    const first = new Map();
    for (const [label, t] of rows) if (!first.has(label)) first.set(label, t);
    for (const [label, t] of first) seen.set(label, [...(seen.get(label) ?? []), t]);
  }
  console.log(`\n${title} (median of each step's first time per call, ms from the tap; n = calls that had it):`);
  const lines = [...seen].filter(([label]) => !label.includes('long task'))
    .map(([label, ts]) => [label, median(ts), ts.length]).sort((a, b) => a[1] - b[1]);
  for (const [label, t, n] of lines) console.log(`  ${t.toFixed(0).padStart(6)}  ${label}${n < calls.length ? `  (n=${n})` : ''}`);
  const busy = new Map();
  for (const rows of calls) {
    const sums = new Map();
    for (const [label] of rows) {
      const m = /^(.*): long task (\d+) ms$/.exec(label);
      if (m) sums.set(m[1], (sums.get(m[1]) ?? 0) + Number(m[2]));
    }
    for (const [page, sum] of sums) busy.set(page, [...(busy.get(page) ?? []), sum]);
  }
  for (const [page, sums] of busy) console.log(`  long tasks in ${page}: per call ${sums.join(', ')} ms`);
  const tasks = calls.flatMap((rows) => rows.filter(([label]) => label.includes('long task')).map(([label, t]) => `${label} at ${t.toFixed(0)}`));
  if (tasks.length) console.log(`  long tasks: ${tasks.join('; ')}`);
}

/**
 * A CPU profile of `page` (fine sampling); `stop` prints where the main thread was from the
 * tap to the first frame (self time by function, and the busy stretches) and saves the profile
 * in .tmp for the DevTools.
 */
async function startProfile(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  // The profile's clock starts about now: the page's clock read at once (a few ms of slack).
  const [origin, startNow] = await page.evaluate(() => [performance.timeOrigin, performance.now()]);
  return {
    async stop(tapEpoch, frame) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(`.tmp/call-${PROFILE}.cpuprofile`, JSON.stringify(profile));
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const self = new Map();
      const busy = [];
      let t = profile.startTime;
      for (let k = 0; k < profile.samples.length; k++) {
        t += profile.timeDeltas[k];
        const node = byId.get(profile.samples[k]);
        const { functionName, url, lineNumber } = node.callFrame;
        const name = functionName || '(anonymous)';
        if (name === '(idle)' || name === '(program)' || name === '(root)') continue;
        const dt = (profile.timeDeltas[k + 1] ?? 0) / 1000;
        const key = `${name} ${url.split('/').pop()}:${lineNumber}`;
        self.set(key, (self.get(key) ?? 0) + dt);
        busy.push(startNow + (t - profile.startTime) / 1000);
      }
      const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
      console.log(`\nCPU profile of the ${PROFILE}'s page during call 4 (self ms, whole call; saved in .tmp/call-${PROFILE}.cpuprofile):`);
      for (const [key, ms] of top) console.log(`  ${ms.toFixed(1).padStart(7)}  ${key}`);
      // Busy stretches, in ms from the tap: samples closer than 2 ms joined.
      const tapNow = tapEpoch - origin;
      const rel = busy.map((now) => now - tapNow).filter((x) => x >= -5 && x <= frame + 20);
      const stretches = [];
      for (const x of rel) {
        const last = stretches.at(-1);
        if (last && x - last[1] < 2) last[1] = x; else stretches.push([x, x]);
      }
      console.log(`  busy from the tap (ms): ${stretches.filter(([a, b]) => b - a >= 1).map(([a, b]) => `${a.toFixed(0)}–${b.toFixed(0)}`).join(', ')}`);
      await cdp.detach();
    },
  };
}

/** In the user's page: tap the call button, resolve with the caller's milestones (ms since the tap). */
function tapAndTime({ label, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const button = [...document.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === label || b.textContent === label);
    if (!button) return reject(new Error(`no '${label}' button`));
    performance.mark('bench-call');
    const t0 = performance.now();
    const marks = { tapEpoch: performance.timeOrigin + t0 };
    window.__rtcMarks.length = 0;
    let watching = null;
    const check = () => {
      const dialog = document.querySelector('[role="dialog"][aria-label="Call"]');
      const phase = dialog?.getAttribute('data-phase');
      if (phase === 'connecting' && marks.connecting === undefined) marks.connecting = performance.now() - t0;
      if (phase === 'connected' && marks.connected === undefined) marks.connected = performance.now() - t0;
      const video = document.querySelector('[role="dialog"][aria-label="Call"] video[aria-label="Their video"]');
      if (video && video !== watching) {
        watching = video;
        video.requestVideoFrameCallback((now) => {
          observer.disconnect();
          clearTimeout(timer);
          for (const [name, at] of window.__rtcMarks) marks[name] ??= at - t0;
          resolve({ ...marks, frame: now - t0 });
        });
      }
      const ended = document.querySelector('[role="dialog"][aria-label="Call ended"]');
      if (ended) {
        observer.disconnect();
        clearTimeout(timer);
        reject(new Error(`the call ended: ${ended.textContent}`));
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-phase'] });
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error('no remote frame in time'));
    }, timeoutMs);
    button.click();
  });
}

const BASELINE_HTML = `<!doctype html><meta charset="utf-8"><title>raw WebRTC baseline</title><body><script type="module">
const role = new URLSearchParams(location.search).get('role');
const ws = new WebSocket('ws://' + location.host + '/relay?role=' + role);
const opened = new Promise((resolve) => { ws.onopen = resolve; });
const send = (m) => ws.send(JSON.stringify(m));
const CAMERA = { width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 30, max: 30 } };
let pc = null, stream = null, video = null, pending = [], remoteSet = false, onFrame = null;
function preferVp9(pc) {
  const codecs = RTCRtpReceiver.getCapabilities('video')?.codecs ?? [];
  const vp9 = (c) => c.mimeType.toLowerCase() === 'video/vp9';
  if (!codecs.some(vp9)) return;
  for (const t of pc.getTransceivers()) if (t.receiver.track.kind === 'video') t.setCodecPreferences([...codecs.filter(vp9), ...codecs.filter((c) => !vp9(c))]);
}
async function keepResolution(pc) {
  for (const s of pc.getSenders()) {
    if (s.track?.kind !== 'video') continue;
    const p = s.getParameters(); p.degradationPreference = 'maintain-resolution'; await s.setParameters(p).catch(() => {});
  }
}
async function camera() {
  stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true }, video: CAMERA });
}
function newPc() {
  pc = new RTCPeerConnection({ iceServers: [], bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require' });
  pc.onicecandidate = (e) => { if (e.candidate) send({ kind: 'candidate', candidate: e.candidate.toJSON() }); };
  pc.ontrack = (e) => {
    if (e.track.kind !== 'video') return;
    video = document.createElement('video');
    video.muted = true; video.autoplay = true; video.playsInline = true;
    video.srcObject = new MediaStream([e.track]);
    document.body.append(video);
    video.requestVideoFrameCallback((now) => onFrame?.(now));
  };
  for (const t of stream.getTracks()) pc.addTrack(t, stream);
  preferVp9(pc);
}
async function addPending() { for (const c of pending.splice(0)) await pc.addIceCandidate(c).catch(() => {}); }
ws.onmessage = async ({ data }) => {
  const m = JSON.parse(data);
  if (m.kind === 'ring') {          // callee: take the call at once
    await camera(); newPc();
    await pc.setLocalDescription(await pc.createOffer());
    send({ kind: 'description', description: pc.localDescription.toJSON() });
  } else if (m.kind === 'description' && m.description.type === 'offer') {   // caller
    newPc();
    await pc.setRemoteDescription(m.description); remoteSet = true; await addPending();
    await pc.setLocalDescription(await pc.createAnswer());
    send({ kind: 'description', description: pc.localDescription.toJSON() });
    await keepResolution(pc);
  } else if (m.kind === 'description') {
    await pc.setRemoteDescription(m.description); remoteSet = true; await addPending();
    await keepResolution(pc);
  } else if (m.kind === 'candidate') {
    pending.push(m.candidate);
    if (pc && remoteSet) await addPending();
  }
};
window.ready = () => opened;
window.call = () => new Promise((resolve, reject) => {
  const t0 = performance.now();
  const timer = setTimeout(() => reject(new Error('no remote frame in time')), ${CALL_TIMEOUT_MS});
  onFrame = (now) => { clearTimeout(timer); onFrame = null; resolve({ frame: now - t0 }); };
  camera().then(() => send({ kind: 'ring' }), reject);
});
window.hangup = () => {
  pc?.close(); pc = null; remoteSet = false; pending = [];
  for (const t of stream?.getTracks() ?? []) t.stop();
  stream = null; video?.remove(); video = null;
};
</script>`;

/** The baseline page and its relay: each message goes to the other role's socket. */
function baselineServer() {
  const server = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname === '/baseline.html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(BASELINE_HTML);
    } else {
      res.writeHead(404).end();
    }
  });
  const wss = new WebSocketServer({ server, path: '/relay' });
  const sockets = new Map();
  wss.on('connection', (ws, req) => {
    const role = new URL(req.url ?? '/', 'http://x').searchParams.get('role');
    sockets.set(role, ws);
    ws.on('message', (data) => sockets.get(role === 'caller' ? 'callee' : 'caller')?.send(String(data)));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, wss, origin: `http://localhost:${server.address().port}` })));
}

async function context(browser) {
  const ctx = await browser.newContext({ viewport: VIEWPORT });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { ctx, page, errors };
}

async function main() {
  // Before the bench's own browsers, cameras and server load the machine.
  const busyAtStart = await busyBefore();
  if (!existsSync('dist/index.html')) {
    const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const { base, child } = await startServer(await freePort());
  const relay = await baselineServer();
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: chromiumArgs });
  const app = [];
  const raw = [];
  const appTraces = [];
  const rawTraces = [];
  try {
    const accounts = await (await fetch(`${base}/shell/api/accounts`)).json();
    const hostAccount = accounts.find((a) => a.userType === 2 && a.userLevel > 0);
    // A user with diamonds for every call (the first period is charged when the host takes it).
    const userAccount = accounts.find((a) => a.userType === 1 && a.userLevel === 0);
    const host = await context(browser);
    const user = await context(browser);
    if (TRACE) for (const side of [host, user]) await side.page.addInitScript(traceSteps);
    await openApp(host.page, base, hostAccount.userId, '/');
    await host.page.getByRole('heading', { name: 'Home' }).waitFor();
    await host.page.evaluate(autoAccept);
    await user.page.addInitScript(watchPeerConnections);
    await openApp(user.page, base, userAccount.userId, `/talk?to=${hostAccount.yxAccid}&taPath=bench`);
    const label = `Video call ${hostAccount.nickname}`;
    await user.page.getByRole('button', { name: label }).waitFor();

    const caller = await context(browser);
    const callee = await context(browser);
    if (TRACE) for (const side of [caller, callee]) await side.page.addInitScript(traceSteps);
    await caller.page.goto(`${relay.origin}/baseline.html?role=caller`);
    await callee.page.goto(`${relay.origin}/baseline.html?role=callee`);
    await caller.page.evaluate(() => window.ready());
    await callee.page.evaluate(() => window.ready());

    for (let i = 0; i < CALLS; i++) {
      const profiling = PROFILE && i === 3 ? await startProfile({ host, user }[PROFILE].page) : null;
      const timeline = TIMELINE && i === 3;
      // App: tap → the caller's first remote frame on screen.
      const tap = () => user.page.evaluate(tapAndTime, { label, timeoutMs: CALL_TIMEOUT_MS });
      const marks = timeline ? await underTimeline(browser, 'app', tap) : await tap();
      if (profiling) await profiling.stop(marks.tapEpoch, marks.frame);
      const ringEpoch = await host.page.evaluate(() => window.__bench.rings.at(-1));
      app.push({ ...marks, ring: ringEpoch - marks.tapEpoch });
      if (TRACE) {
        appTraces.push((await takeTraces({ host: host.page, user: user.page }, marks.tapEpoch)).filter(([, t]) => t <= marks.frame + 20));
        console.log(`app call ${i + 1}: ${await videoCounters({ host: host.page, user: user.page })}`);
      }
      await user.page.getByRole('dialog', { name: 'Call' }).getByRole('button', { name: 'End call' }).click();
      for (const side of [user, host]) {
        const ended = side.page.getByRole('dialog', { name: 'Call ended' });
        await ended.waitFor();
        await ended.getByRole('button', { name: 'Close' }).click();
      }
      // Raw WebRTC: call() → the caller's first remote frame.
      const call = () => caller.page.evaluate(async () => {
        performance.mark('bench-call');
        return { from: performance.timeOrigin + performance.now(), ...(await window.call()) };
      });
      const run = timeline ? await underTimeline(browser, 'raw', call) : await call();
      raw.push(run);
      if (TRACE) {
        rawTraces.push((await takeTraces({ caller: caller.page, callee: callee.page }, run.from)).filter(([, t]) => t <= run.frame + 20));
        console.log(`raw call ${i + 1}: ${await videoCounters({ caller: caller.page, callee: callee.page })}`);
      }
      await caller.page.evaluate(() => window.hangup());
      await callee.page.evaluate(() => window.hangup());
    }
    const errors = [...host.errors, ...user.errors, ...caller.errors, ...callee.errors];
    if (errors.length) throw new Error(`page errors:\n${errors.join('\n')}`);
  } finally {
    await browser.close();
    relay.wss.close();
    relay.server.close();
    child.kill('SIGTERM');
  }
  report(app, raw, busyAtStart);
  if (TRACE) {
    // The first call loads the call's code: its steps are not those of the calls after it.
    traceReport(FIRST ? 'first call' : 'app steps', FIRST ? appTraces.slice(0, 1) : appTraces.slice(1));
    traceReport('raw WebRTC steps', rawTraces.slice(1));
  }
}

function report(app, raw, busyAtStart) {
  const appMedian = median(app.map((r) => r.frame));
  const rawMedian = median(raw.map((r) => r.frame));
  const ratio = appMedian / rawMedian;
  console.log(`\nCall setup on loopback, tap → the caller's first remote frame (Chromium, fake camera 720p, ${CALLS} calls each, alternating):`);
  const note = busyNote(busyAtStart);
  if (note) console.log(note);
  console.log(`  app (UI, reference server, local RTC adapter)  median ${ms(appMedian).padStart(8)}   runs ${app.map((r) => r.frame.toFixed(0)).join(', ')}`);
  console.log(`  raw WebRTC (two pages, a WebSocket relay)      median ${ms(rawMedian).padStart(8)}   runs ${raw.map((r) => r.frame.toFixed(0)).join(', ')}`);
  const step = (key) => ms(median(app.map((r) => r[key] ?? r.frame)));
  // The first call is in both medians; said apart because its cost is not the set-up's own.
  console.log(`  first calls (in the medians): app ${ms(app[0].frame)} (the browser's first camera, and call code not loaded yet), raw ${ms(raw[0].frame)}`);
  console.log('  app steps at the caller (medians, from the tap):');
  console.log(`    ring shown at the host ${step('ring')}; taken (connecting) ${step('connecting')}; peer connection connected ${step('pcConnected')};`);
  console.log(`    first video packets ${step('firstPackets')}; first frame decoded (connected) ${step('connected')}; first frame on screen ${ms(appMedian)}`);
  console.log(`\nCall setup ratio app / raw WebRTC: ${ratio.toFixed(2)} (goal ≤ ${GOAL_RATIO}): ${ratio <= GOAL_RATIO ? 'within goal' : 'MISSED'}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
