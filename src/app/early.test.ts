/** Answers asked for at the start and taken once by their screen (src/app/early.ts). */
import { describe, expect, it, vi } from 'vitest';
import { EARLY_ANSWER_MAX_AGE_MS, createEarlyAnswers, takeOrAsk } from './early';

describe('early answers', () => {
  it('asks at once and hands the answer to one take only', async () => {
    const early = createEarlyAnswers();
    const ask = vi.fn(() => Promise.resolve(7));
    void early.ask('k', ask);
    expect(ask).toHaveBeenCalledTimes(1);
    await expect(early.take('k')).resolves.toBe(7);
    expect(early.take('k')).toBeNull();
    expect(early.take('other')).toBeNull();
  });

  it('an answer asked for too long ago is not taken: the screen asks afresh', async () => {
    let now = 1000;
    const early = createEarlyAnswers(() => now);
    void early.ask('k', () => Promise.resolve('old'));
    now += EARLY_ANSWER_MAX_AGE_MS + 1;
    expect(early.take('k')).toBeNull();
    await expect(takeOrAsk(early, 'k', () => Promise.resolve('fresh'))).resolves.toBe('fresh');
  });

  it('takeOrAsk uses the early answer, asks when there is none, and asks again when the early one failed', async () => {
    const early = createEarlyAnswers();
    const ask = vi.fn(() => Promise.resolve('asked'));
    void early.ask('ok', () => Promise.resolve('early'));
    await expect(takeOrAsk(early, 'ok', ask)).resolves.toBe('early');
    expect(ask).not.toHaveBeenCalled();
    await expect(takeOrAsk(early, 'ok', ask)).resolves.toBe('asked');
    void early.ask('bad', () => Promise.reject(new Error('Server Failure')));
    await expect(takeOrAsk(early, 'bad', ask)).resolves.toBe('asked');
    expect(ask).toHaveBeenCalledTimes(2);
    await expect(takeOrAsk(undefined, 'ok', ask)).resolves.toBe('asked');
  });

  it('a failed answer nobody takes is no unhandled rejection', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    const early = createEarlyAnswers();
    void early.ask('bad', () => Promise.reject(new Error('offline')));
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });
});
