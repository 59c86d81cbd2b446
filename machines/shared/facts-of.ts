/**
 * A subscription to the facts another actor of the system emits (`system.get(id).on(type)`),
 * for as long as the state that invokes it: each fact comes to the invoker under the name it was
 * emitted with, and the subscription ends with the state. Nobody relays: the owner of a fact
 * emits it, whoever needs it subscribes (ARCHITECTURE.md, "Owners, not routers").
 *
 * An actor of the system that is not there (a machine tested on its own) gives no facts.
 */
import { fromCallback } from 'xstate';
import type { AnyActorRef, EventObject } from 'xstate';

/** `E`: what the source emits (its `types.emitted`), so that only its facts can be named. */
export function factsOf<E extends EventObject>(systemId: string, types: readonly E['type'][]) {
  return fromCallback<EventObject, void>(({ system, sendBack }) => {
    const source: AnyActorRef | undefined = system.get(systemId);
    const subscriptions = source ? types.map((type) => source.on(type, (event: EventObject) => sendBack(event))) : [];
    return () => subscriptions.forEach((s) => s.unsubscribe());
  });
}
