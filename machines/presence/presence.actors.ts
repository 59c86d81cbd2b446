/** presence's actors, written against the presence port only. */
import { fromCallback, fromPromise } from 'xstate';
import type { PresenceCode, PresencePort } from '../ports/presence.port';
import { presenceMachine } from './presence.machine';
import type { PresenceEvent } from './presence.machine';

/**
 * A reconnect policy other than SPEC §9's 720 tries 5 s apart: development only (a test that
 * watches presence give up; src/app/devSettings.ts), never in a production build.
 */
export interface PresenceRetry {
  maxTries: number;
  delayMs: number;
}

export function composePresence(presence: PresencePort, retry?: PresenceRetry) {
  const policy = retry
    ? { delays: { reconnectDelay: retry.delayMs }, guards: { triesLeft: ({ context }: { context: { tries: number } }) => context.tries < retry.maxTries } }
    : {};
  return presenceMachine.provide({
    ...policy,
    actors: {
      open: fromPromise(() => presence.open()),
      send: fromPromise<void, PresenceCode>(({ input }) => presence.send(input)),
      watch: fromCallback<PresenceEvent>(({ sendBack }) =>
        presence.subscribe((e) => { if (e.type === 'closed') sendBack({ type: 'presence.closed' }); })),
    },
    actions: {
      closeSocket: () => presence.close(),
    },
  });
}
