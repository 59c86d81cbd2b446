/**
 * Hub flood and slow members. One signed-in IM socket sends 100,000 frames as fast as it can;
 * then a live room's chat gets busy (many members posting long messages) while 100 other
 * members have stopped reading, so that everything for them piles up in the server unless it
 * cuts them. The server's memory is sampled throughout.
 *
 * Bounds: the flood is cut (the server closes the socket, or refuses nearly all of it), and the
 * server's memory grows by less than 64 MiB while members do not read.
 */
import { RealtimePath } from '../../src/api/contract/realtime';
import { clientAddress, dropAgents, hostAccount, hubSocket, signIn, userAccount, type HubSocket, type Person } from './client';
import { Bounds, inParallel, mib, n, sleep, type Probe } from './probe';
import { goLive } from './scenes';
import { startServer, type ProbeServer } from './server';

/** Full run; the light run of `npm test` floods 20,000 frames beside 50 members who do not read. */
const FLOOD_FRAMES = 100_000;
const IDLE_MEMBERS = 100;
const RSS_GROWTH_BOUND = 64 * 1024 * 1024;
/** The chat's longest text (ChatroomOps.send). */
const MESSAGE = 'busy room '.repeat(200);

export const hubProbe: Probe = {
  name: 'hub',
  summary: '100,000-frame flood on one socket; 100 members who stop reading in a busy live chat: flood cut, memory bounded',
  budgetSeconds: { light: 60, full: 120 },
  async run({ light, checkout, note }) {
    const frames = light ? 20_000 : FLOOD_FRAMES;
    const idleMembers = light ? 50 : IDLE_MEMBERS;
    const senders = light ? 20 : 40;
    // Full: 4,000 messages of 2,000 characters are 8 MB for each member, more than the kernel's socket
    // buffers hold (about 4 MB a socket here), so what the server keeps for them shows in its memory.
    const messages = light ? 400 : 4_000;
    const busyMs = light ? 5_000 : 60_000;
    const server = await startServer({ checkout, env: { SEED_HOSTS: '2', SEED_USERS: String(idleMembers + senders + 1) } });
    const sockets: HubSocket[] = [];
    try {
      const base = server.base;
      const people: Person[] = [];
      await inParallel(Array.from({ length: idleMembers + senders + 1 }, (_, i) => i + 1), 8, async (i) => {
        people[i - 1] = await signIn(base, userAccount(i), clientAddress(i));
      });
      const host = await signIn(base, hostAccount(1), clientAddress(900));

      note(`flood of ${n(frames)} frames`);
      const flood = await floodOneSocket(base, people[idleMembers + senders]!, server, frames);

      note(`${senders} members talking (${messages} messages) beside ${idleMembers} who do not read`);
      const live = await goLive(base, host);
      const enter = async (person: Person) => {
        const socket = await hubSocket(base, RealtimePath.chatroom, { from: person.from, keepPushes: false });
        sockets.push(socket);
        const reply = await socket.ask('enter', { roomId: live.yxRoomId, account: person.yxAccid, token: person.imToken, nick: person.nickname });
        return reply?.ok ? socket : null;
      };
      const talkers = (await Promise.all(people.slice(idleMembers, idleMembers + senders).map(enter))).filter((s): s is HubSocket => s !== null);
      const idle = (await Promise.all(people.slice(0, idleMembers).map(enter))).filter((s): s is HubSocket => s !== null);
      for (const socket of idle) socket.stopReading();
      await sleep(200);
      const before = server.rssBytes();
      let peak = before;
      let sent = 0;
      const started = performance.now();
      const sampler = setInterval(() => (peak = Math.max(peak, server.rssBytes())), 25);
      // Each talker posts at most ten times a second and waits for its answer: a busy room at the
      // server's own pace, not a flood; it goes on until the room has carried `messages` or the time is up.
      await Promise.all(talkers.map(async (socket, t) => {
        await sleep(t * 5);
        while (sent < messages && performance.now() - started < busyMs && socket.isOpen()) {
          sent += 1;
          const posted = performance.now();
          await socket.ask('send', { roomId: live.yxRoomId, text: MESSAGE }, 10_000);
          await sleep(Math.max(0, 100 - (performance.now() - posted)));
        }
      }));
      const busySeconds = (performance.now() - started) / 1000;
      await sleep(500);
      clearInterval(sampler);
      peak = Math.max(peak, server.rssBytes());
      const growth = Math.max(0, peak - before);
      // Whether the server cut the idle members shows once they read again (what it sent first, then the cut).
      for (const socket of idle) socket.resumeReading();
      const deadline = performance.now() + 3_000;
      while (performance.now() < deadline && idle.some((s) => s.isOpen())) await sleep(100);
      const idleCut = idle.filter((s) => !s.isOpen()).length;
      const talkersCut = talkers.filter((s) => !s.isOpen()).length;

      const bounds = new Bounds();
      bounds.check(flood.cut, `the ${n(frames)}-frame flood was not cut (${n(flood.answeredOk)} frames answered ok)`);
      bounds.check(growth < RSS_GROWTH_BOUND, `server memory grew ${mib(growth)} with members not reading (bound ${mib(RSS_GROWTH_BOUND)})`);
      bounds.check(talkers.length > 0 && sent > 0, 'nobody could talk in the room: nothing was tested');
      return {
        figures: `flood of ${n(frames)} frames: ${flood.cut ? `cut (${flood.how})` : 'NOT cut'} after ${n(flood.answeredOk)} answered ok `
          + `in ${(flood.ms / 1000).toFixed(1)} s, memory +${mib(flood.growth)}; busy room: ${talkers.length} talking (${talkersCut} cut), `
          + `${n(sent)} messages of ${n(MESSAGE.length)} characters in ${busySeconds.toFixed(1)} s, ${idle.length}/${idleMembers} idle members admitted, `
          + `${idleCut} cut, server memory +${mib(growth)}`,
        broken: bounds.broken,
        numbers: {
          floodAnsweredOk: flood.answeredOk, floodCut: flood.cut ? 1 : 0, floodGrowth: flood.growth, messages: sent,
          idleAdmitted: idle.length, idleCut, talkersCut, rssGrowth: growth,
        },
      };
    } finally {
      for (const socket of sockets) socket.close();
      dropAgents();
      await server.stop();
    }
  },
};

interface Flood {
  cut: boolean;
  how: string;
  answeredOk: number;
  ms: number;
  growth: number;
}

/** `frames` pings on one logged-in IM socket, sent without waiting; cut when the server closes it or refuses nearly all. */
async function floodOneSocket(base: string, person: Person, server: ProbeServer, frames: number): Promise<Flood> {
  const socket = await hubSocket(base, RealtimePath.im, { from: person.from, keepPushes: false });
  await socket.call('login', { account: person.yxAccid, token: person.imToken });
  let answeredOk = 0;
  let refused = 0;
  let lastAnswer = performance.now();
  socket.ws.on('message', (data) => {
    const text = data.toString();
    if (!text.startsWith('{"id"')) return;
    lastAnswer = performance.now();
    if (text.includes('"ok":true')) answeredOk += 1;
    else refused += 1;
  });
  const before = server.rssBytes();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, server.rssBytes())), 25);
  const started = performance.now();
  for (let i = 0; i < frames && socket.isOpen(); i++) socket.ws.send(`{"id":${i},"op":"ping"}`);
  lastAnswer = performance.now();
  let closedBy = '';
  void socket.closed.then(({ code, reason }) => (closedBy = `closed ${code}${reason ? ` '${reason}'` : ''}`));
  // Until every frame is answered, the socket closes, or nothing has come for a second.
  while (socket.isOpen() && answeredOk + refused < frames && performance.now() - lastAnswer < 1_000) await sleep(20);
  const ms = performance.now() - started;
  clearInterval(sampler);
  const open = socket.isOpen();
  socket.close();
  await sleep(10);
  const mostlyRefused = refused >= frames * 0.9;
  return {
    cut: !open || mostlyRefused,
    how: !open ? closedBy || 'closed' : `${n(refused)} refused`,
    answeredOk,
    ms,
    growth: Math.max(0, peak - before),
  };
}
