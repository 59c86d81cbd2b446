/** imConnection's actors, written against the IM port only. */
import { fromCallback, fromPromise } from 'xstate';
import { ImCode } from '../ports/im.port';
import type { ImPort } from '../ports/im.port';
import { codeOf, imConnectionMachine } from './im-connection.machine';
import type { ImConnectionEvent, SendRequest } from './im-connection.machine';

export interface ImConnectionPorts {
  im: ImPort;
  /** A fresh IM token (SPEC §8 -10005 / -10026), e.g. from a profile reload. */
  refreshImToken: () => Promise<string>;
}

export function composeImConnection({ im, refreshImToken }: ImConnectionPorts) {
  return imConnectionMachine.provide({
    actors: {
      login: fromPromise(({ input }) => im.login(input.account, input.token)),
      logout: fromPromise(() => im.logout()),
      refreshToken: fromPromise(() => refreshImToken()),
      ping: fromPromise(() => im.ping()),
      events: fromCallback<ImConnectionEvent>(({ sendBack }) => im.subscribe((event) => sendBack({ type: 'im.event', event }))),
      send: fromCallback<ImConnectionEvent, SendRequest>(({ input, sendBack }) => {
        let live = true;
        im.sendText(input.to, input.text, { idClient: input.idClient, ...(input.ext ? { ext: input.ext } : {}) }).then(
          (message) => live && sendBack({ type: 'im.sent', idClient: input.idClient, message }),
          (error: unknown) => live && sendBack({
            type: 'im.sendFailed',
            idClient: input.idClient,
            reason: codeOf(error) === ImCode.refused ? 'refused' : 'error',
            text: error instanceof Error ? error.message : String(error),
          }),
        );
        return () => { live = false; };
      }),
    },
  });
}
