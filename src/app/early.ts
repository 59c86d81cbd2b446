/**
 * Answers asked for at the start, before the screen that needs them is there: the start knows
 * (from the address and the last session's mode) which screen comes first, and its data can be
 * on the way while that screen's code and the profile load. The screen takes each answer once;
 * one asked for too long ago, never taken, or failed is asked for again by the screen itself.
 */

/** How long an early answer is kept for its screen: past this, the screen asks afresh. */
export const EARLY_ANSWER_MAX_AGE_MS = 15_000;

export interface EarlyAnswers {
  /** Asks now (`ask` is called at once); the answer waits under `key` for one `take`. */
  ask<T>(key: string, ask: () => Promise<T>): Promise<T>;
  /** The answer under `key` when it was asked for recently, once; null otherwise. */
  take<T>(key: string): Promise<T> | null;
}

export function createEarlyAnswers(now: () => number = Date.now): EarlyAnswers {
  const answers = new Map<string, { at: number; answer: Promise<unknown> }>();
  return {
    ask(key, ask) {
      const answer = ask();
      // Not taken, a failure is nobody's: the screen asks again and reports its own.
      answer.catch(() => undefined);
      answers.set(key, { at: now(), answer });
      return answer;
    },
    take<T>(key: string) {
      const early = answers.get(key);
      answers.delete(key);
      if (!early || now() - early.at > EARLY_ANSWER_MAX_AGE_MS) return null;
      return early.answer as Promise<T>;
    },
  };
}

/** `take`'s answer when there is one and it came; otherwise (none, or it failed) `ask()`. */
export async function takeOrAsk<T>(early: EarlyAnswers | undefined, key: string, ask: () => Promise<T>): Promise<T> {
  const taken = early?.take<T>(key);
  if (!taken) return ask();
  try {
    return await taken;
  } catch {
    return ask();
  }
}
