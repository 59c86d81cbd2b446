/**
 * The idempotency key of one intent of the person (src/api/contract/idempotency.ts): made
 * where the intent is taken (the machine that accepts a gift's Send, a call's Call or Answer,
 * a secret's Unlock), kept in that machine's context for the intent's life and passed through
 * the port with the request. A double tap is one intent; a retry after a lost answer sends the
 * same key; a definitive answer (success or refusal) ends the intent, and the next tap makes a
 * new key.
 *
 * The maker is injected: the app uses random UUIDs; tests install one whose keys they can
 * see, to assert that a double tap sent one key and a retry the same one.
 */

/** Makes a new key: 16–64 characters of [A-Za-z0-9_-]. */
export type IntentKeyMaker = () => string;

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * A random UUID (36 characters). `randomUUID` exists only in secure contexts (https and
 * localhost); a page served otherwise (a phone on the developer's network) gets 32 random hex
 * digits from `getRandomValues`, which exists everywhere.
 */
export const randomIntentKey: IntentKeyMaker = () =>
  typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : hex(crypto.getRandomValues(new Uint8Array(16)));

let maker: IntentKeyMaker = randomIntentKey;

/** A new key from the maker in use. */
export const newIntentKey = (): string => maker();

/** Makes keys with `make` from now on (tests); answers the function that puts the previous maker back. */
export function setIntentKeyMaker(make: IntentKeyMaker): () => void {
  const previous = maker;
  maker = make;
  return () => {
    maker = previous;
  };
}

/**
 * A request whose answer never came (no connection, a time-out, a server failure, an answer
 * that could not be read): it may have been carried out or not, so its intent stays open and
 * trying it again sends the same key. Ports reject with it; refusals are their own errors.
 */
export class UnansweredError extends Error {
  override name = 'UnansweredError';
}
