/**
 * The root actor's actors, written against ports only. `src/main.tsx` and the tests
 * compose the machine through this one function, so both run the same wiring.
 */
import { fromPromise } from 'xstate';
import type {
  Credentials, MineInfo, Registration, SessionPort, SignInOutcome, StoredAuth,
} from '../ports/session.port';
import { appMachine } from './app.machine';

export interface AppPorts {
  session: SessionPort;
}

export function composeAppMachine(ports: AppPorts) {
  const { session } = ports;
  return appMachine.provide({
    actors: {
      signIn: fromPromise<SignInOutcome, Credentials>(({ input }) => session.signIn(input)),
      register: fromPromise<SignInOutcome, Registration>(({ input }) => session.register(input)),
      visit: fromPromise<SignInOutcome, void>(() => session.visit()),
      loadProfile: fromPromise<MineInfo, StoredAuth>(({ input }) => session.loadProfile(input)),
      forget: fromPromise<void, void>(() => session.forget()),
    },
  });
}
