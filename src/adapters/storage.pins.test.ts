// @vitest-environment jsdom
/**
 * The pins contract against the storage adapter (readPins / writePins, as src/compose/realtime.ts
 * composes them) over jsdom's localStorage, and what the adapter does with storage it cannot read.
 */
import { describe, expect, it } from 'vitest';
import { registerPinsContract } from '../../machines/ports/pins.contract';
import type { PinsPort } from '../../machines/ports/pins.port';
import { readPins, writePins } from './storage';

const storagePins = (): PinsPort => ({ load: readPins, save: writePins });

registerPinsContract('storage adapter over localStorage', () => {
  window.localStorage.clear();
  return { port: storagePins(), reopen: storagePins, dispose: () => window.localStorage.clear() };
});

describe('pins in storage', () => {
  it('anything unreadable is no pins, and only ids are kept', () => {
    window.localStorage.setItem('app.pins.alice', '{not json');
    expect(readPins('alice')).toEqual([]);
    window.localStorage.setItem('app.pins.alice', '{"a":1}');
    expect(readPins('alice')).toEqual([]);
    window.localStorage.setItem('app.pins.alice', '["p2p-a", 5, null, "p2p-b"]');
    expect(readPins('alice')).toEqual(['p2p-a', 'p2p-b']);
    window.localStorage.clear();
  });
});
