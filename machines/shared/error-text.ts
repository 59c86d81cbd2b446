/**
 * Turning a failure into what the person reads, once for every machine: ports and the API
 * client reject with errors whose message is already in the person's words (SPEC §8), so that
 * message is the text; anything without one (a bare rejection, an empty message) gets the
 * caller's fallback.
 */

export const TEXT_SOMETHING_FAILED = 'Something went wrong. Please try again.';

/** The person's text of `error`: its message, a non-empty string as it is, else `fallback`. */
export function textOf(error: unknown, fallback: string = TEXT_SOMETHING_FAILED): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}

/**
 * The params of an action or guard that needs an actor's error (`onError`): its event is typed
 * there, not in the machine's own events, so the error is handed on as params instead of a cast:
 * `{ type: 'failed', params: errorOf }`.
 */
export const errorOf = ({ event }: { event: { error?: unknown } }): { error: unknown } => ({ error: event.error });
