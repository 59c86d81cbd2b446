/** The root app actor, created once in main.tsx, handed to React through context. */
import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { composeAppMachine } from '../../machines/app/app.actors';

export type AppActor = ActorRefFrom<ReturnType<typeof composeAppMachine>>;

export const AppActorContext = createContext<AppActor | null>(null);

export function useAppActor(): AppActor {
  const actor = useContext(AppActorContext);
  if (!actor) throw new Error('useAppActor outside AppActorContext');
  return actor;
}
