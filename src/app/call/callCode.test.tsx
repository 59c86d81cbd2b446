// @vitest-environment jsdom
/** A screen that offers a call loads the call's code at its next idle moment, once it offers one. */
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServicesContext, type Services } from '../services';
import { useWarmCall } from './callCode';

vi.mock('./CallOverlay', () => ({ CallOverlay: () => null }));
vi.mock('../../../machines/session/per-use.actors', () => ({}));

const w = window as unknown as { requestIdleCallback?: (fn: () => void) => number; cancelIdleCallback?: (id: number) => void };

function Screen({ offered }: { offered: boolean }) {
  useWarmCall(offered);
  return null;
}

function setUp() {
  const idle = new Map<number, () => void>();
  let next = 0;
  w.requestIdleCallback = (fn) => { idle.set(++next, fn); return next; };
  w.cancelIdleCallback = (id) => { idle.delete(id); };
  const warmCall = vi.fn();
  const services = { warmCall } as unknown as Services;
  const view = (offered: boolean) => <ServicesContext.Provider value={services}><Screen offered={offered} /></ServicesContext.Provider>;
  const runIdle = () => act(() => { for (const [id, fn] of [...idle]) { idle.delete(id); fn(); } });
  return { idle, warmCall, view, runIdle };
}

afterEach(() => {
  cleanup();
  delete w.requestIdleCallback;
  delete w.cancelIdleCallback;
});

describe('useWarmCall', () => {
  it('loads the call ports and media at the next idle moment, not during the render', () => {
    const { warmCall, view, runIdle, idle } = setUp();
    render(view(true));
    expect(warmCall).not.toHaveBeenCalled();
    expect(idle.size).toBe(1);
    runIdle();
    expect(warmCall).toHaveBeenCalledTimes(1);
  });

  it('loads nothing while no call is offered, and starts when one is', () => {
    const { warmCall, view, runIdle, idle } = setUp();
    const { rerender } = render(view(false));
    expect(idle.size).toBe(0);
    rerender(view(true));
    runIdle();
    expect(warmCall).toHaveBeenCalledTimes(1);
  });

  it('a screen left before the idle moment loads nothing', () => {
    const { warmCall, view, runIdle, idle } = setUp();
    const { unmount } = render(view(true));
    unmount();
    expect(idle.size).toBe(0);
    runIdle();
    expect(warmCall).not.toHaveBeenCalled();
  });

  it('without idle callbacks it loads in a task after the render', async () => {
    vi.useFakeTimers();
    try {
      const { warmCall, view } = setUp();
      delete w.requestIdleCallback;
      render(view(true));
      expect(warmCall).not.toHaveBeenCalled();
      await act(async () => { await vi.runAllTimersAsync(); });
      expect(warmCall).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
