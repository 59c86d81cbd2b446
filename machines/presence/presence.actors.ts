/** presence's actors, written against the presence port only. */
import { fromCallback, fromPromise } from 'xstate';
import type { PresenceCode, PresencePort } from '../ports/presence.port';
import { presenceMachine } from './presence.machine';
import type { PresenceEvent } from './presence.machine';

export function composePresence(presence: PresencePort) {
  return presenceMachine.provide({
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
