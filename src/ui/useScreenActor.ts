/**
 * A screen's own actor (a list, a form, a flow the screen composes from its machine and the
 * services' ports), shown in the Stately inspector beside the root actor when `?inspect=1`
 * opened it (src/app/inspector.ts: secrets redacted), like every child of the root.
 */
import { useActorRef } from '@xstate/react';
import { useContext } from 'react';
import type { ActorOptions, AnyActorLogic } from 'xstate';
import { ServicesContext } from '../compose/services';

export function useScreenActor<TLogic extends AnyActorLogic>(logic: TLogic, options?: ActorOptions<TLogic>) {
  const inspect = useContext(ServicesContext)?.inspect;
  return useActorRef(logic, inspect ? { ...options, inspect } : options);
}
