/**
 * A bystander: someone else using the server while a probe attacks it, in a process of its
 * own. Its times must not include the attacker's work: in the probe's process they would wait
 * behind every request the attack encrypts and sends, and read the client's queue as the
 * server's. It repeats one request (prepared by the probe: the body is already encrypted)
 * with a pause between, and hands back each answer with its time.
 */
import { spawn } from 'node:child_process';
import { openEnvelope, type Envelope } from './client';

export interface Sample {
  /** When the answer came (ms since the epoch). */
  at: number;
  ms: number;
  status: number;
  envelope: Envelope | undefined;
}

export interface BystanderSpec {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The loopback address it comes from. */
  from: string;
  pauseMs: number;
}

/** Plain CommonJS for `node -e`: no TypeScript, no codec; the probe reads the answers. */
const SCRIPT = `
const http = require('node:http');
const spec = JSON.parse(process.argv[1]);
const agent = new http.Agent({ keepAlive: true, localAddress: spec.from });
const samples = [];
let running = true;
process.stdin.on('data', () => { running = false; });
process.stdin.on('end', () => { running = false; });
function once() {
  return new Promise((resolve) => {
    const started = performance.now();
    const done = (status, text) => resolve({ at: Date.now(), ms: performance.now() - started, status, text });
    const req = http.request(spec.url, {
      method: 'POST', agent, headers: { ...spec.headers, 'content-length': Buffer.byteLength(spec.body) },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done(res.statusCode, Buffer.concat(chunks).toString()));
    });
    req.on('error', (e) => done(0, String(e.message)));
    req.end(spec.body);
  });
}
(async () => {
  while (running) {
    samples.push(await once());
    await new Promise((r) => setTimeout(r, spec.pauseMs));
  }
  process.stdout.write(JSON.stringify(samples), () => process.exit(0));
})();
`;

export interface Bystander {
  /** Stops it and answers every sample, in order. */
  stop(): Promise<Sample[]>;
}

export function bystander(spec: BystanderSpec): Bystander {
  const child = spawn(process.execPath, ['-e', SCRIPT, JSON.stringify(spec)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const out: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      child.stdin.end('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
      const raw = JSON.parse(Buffer.concat(out).toString() || '[]') as { at: number; ms: number; status: number; text: string }[];
      return raw.map(({ at, ms, status, text }) => ({ at, ms, status, envelope: openEnvelope(text) }));
    },
  };
}
