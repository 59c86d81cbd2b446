/**
 * Idempotency keys a test can see (machines/shared/intent-key.ts): while installed, every key a
 * machine makes is the next of 'test-intent-key-0001', 'test-intent-key-0002', … and is listed
 * in `made`, so a test can say that a double tap made one key and a retry sent the same one.
 */
import { setIntentKeyMaker } from '../shared/intent-key';

export function seenIntentKeys(): { made: string[]; restore: () => void } {
  const made: string[] = [];
  const restore = setIntentKeyMaker(() => {
    const key = `test-intent-key-${String(made.length + 1).padStart(4, '0')}`;
    made.push(key);
    return key;
  });
  return { made, restore };
}
