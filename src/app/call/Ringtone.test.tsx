// @vitest-environment jsdom
/** The ringing tone (SPEC §4: it plays while calling): one audio context for every ring, suspended between rings. */
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Ringtone } from './Ringtone';

afterEach(cleanup);

const node = () => ({ connect() {}, disconnect() {}, start() {}, stop() {}, frequency: { value: 0 }, gain: { value: 0, setValueAtTime() {} } });
class FakeAudioContext {
  static made = 0;
  static last: FakeAudioContext | null = null;
  state: AudioContextState = 'suspended';
  currentTime = 0;
  destination = {};
  log: string[] = [];
  constructor() {
    FakeAudioContext.made += 1;
    FakeAudioContext.last = this;
  }
  createGain() { return node(); }
  createOscillator() { return node(); }
  async resume() { this.log.push('resume'); this.state = 'running'; }
  async suspend() { this.log.push('suspend'); this.state = 'suspended'; }
  async close() { this.log.push('close'); this.state = 'closed'; }
}

describe('[§4] ringing tone', () => {
  it('plays in one audio context made at the first ring, suspended when a ring ends and resumed at the next', async () => {
    (window as unknown as { AudioContext: unknown }).AudioContext = FakeAudioContext;
    for (let i = 0; i < 3; i++) {
      const ring = render(<Ringtone />);
      await act(async () => {});
      expect(FakeAudioContext.last?.state).toBe('running');
      ring.unmount();
    }
    expect(FakeAudioContext.made).toBe(1);
    expect(FakeAudioContext.last?.log).toEqual(['resume', 'suspend', 'resume', 'suspend', 'resume', 'suspend']);
  });
});
