/**
 * Timer stand-ins for generated paths of machines with several timers running at once (a
 * heartbeat beside a call warning, two highlight slots): `fireTimer` finds the delayed event
 * the running actors scheduled (so a path fails when the machine never armed that timer) and
 * delivers exactly that one, without moving the clock, so the other timers stay where they
 * are. How long each timer is gets its own test on a simulated clock.
 */
import type { AnyActorRef, EventObject } from 'xstate';

/** The delayed events scheduled in the actor's system, by type. */
export function scheduledTimers(actor: AnyActorRef): string[] {
  return Object.values(actor.system.getSnapshot()._scheduledEvents).map((e) => e.event.type);
}

/** Fires the scheduled delayed event of type `type` now; throws when none is scheduled. */
export function fireTimer(actor: AnyActorRef, type: string): void {
  const entry = Object.values(actor.system.getSnapshot()._scheduledEvents).find((e) => e.event.type === type);
  if (!entry) throw new Error(`No timer ${type} is scheduled (scheduled: ${scheduledTimers(actor).join(', ') || 'none'}).`);
  actor.system.scheduler.cancel(entry.source, entry.id);
  (entry.target as AnyActorRef).send(entry.event as EventObject);
}
