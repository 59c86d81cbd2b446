/**
 * The root actor's actors, written against ports only. `src/main.tsx` and the tests
 * compose the machine through this one function, so both run the same wiring.
 */
import { fromPromise, sendParent } from 'xstate';
import type { MineInfo, SessionPort, SignInOutcome, StoredAuth } from '../ports/session.port';
import { composeSession } from '../session/session.actors';
import type { RealtimePorts } from '../session/session.ports';
import type { SessionOutput } from '../session/session.machine';
import { appMachine } from './app.machine';
import type { EntryRequest } from './app.machine';

export interface AppPorts {
  session: SessionPort;
  /** What the signed-in session's children need (IM, presence, clock, lookups). */
  realtime: RealtimePorts;
}

export function composeAppMachine(ports: AppPorts) {
  const { session } = ports;
  return appMachine.provide({
    actors: {
      enter: fromPromise<SignInOutcome, EntryRequest>(({ input }) => {
        switch (input.kind) {
          case 'login': return session.signIn(input.credentials);
          case 'register': return session.register(input.registration);
          case 'visit': return session.visit();
        }
      }),
      loadProfile: fromPromise<MineInfo, StoredAuth>(({ input }) => session.loadProfile(input)),
      forget: fromPromise<void, void>(() => session.forget()),
      session: composeSession({ ...ports.realtime, tokens: { ...ports.realtime.tokens, refreshIm: () => session.refreshImToken() } }).provide({
        // What the session reports reaches the root as events.
        actions: { output: sendParent((_, params: SessionOutput) => params) },
      }),
    },
  });
}
