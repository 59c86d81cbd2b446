// @vitest-environment jsdom
/** A screen that offers a call loads the call's code at its next idle moment, once it offers one. */
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServicesContext, type Services } from '../services';
import { useWarmCall } from './callCode';

vi.mock('./CallOverlay', () => ({ CallOverlay: () => null }));
vi.mock('../../../machines/session/per-use.actors', () => ({}));
vi.mock('../perUsePorts', () => ({}));

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
  const warmCallMedia = vi.fn();
  const services = { warmCallMedia } as unknown as Services;
  const view = (offered: boolean) => <ServicesContext.Provider value={services}><Screen offered={offered} /></ServicesContext.Provider>;
  const runIdle = () => act(() => { for (const [id, fn] of [...idle]) { idle.delete(id); fn(); } });
  return { idle, warmCallMedia, view, runIdle };
}

afterEach(() => {
  cleanup();
  delete w.requestIdleCallback;
  delete w.cancelIdleCallback;
});

describe('useWarmCall', () => {
  it('loads the media adapter at the next idle moment, not during the render', () => {
    const { warmCallMedia, view, runIdle, idle } = setUp();
    render(view(true));
    expect(warmCallMedia).not.toHaveBeenCalled();
    expect(idle.size).toBe(1);
    runIdle();
    expect(warmCallMedia).toHaveBeenCalledTimes(1);
  });

  it('loads nothing while no call is offered, and starts when one is', () => {
    const { warmCallMedia, view, runIdle, idle } = setUp();
    const { rerender } = render(view(false));
    expect(idle.size).toBe(0);
    rerender(view(true));
    runIdle();
    expect(warmCallMedia).toHaveBeenCalledTimes(1);
  });

  it('a screen left before the idle moment loads nothing', () => {
    const { warmCallMedia, view, runIdle, idle } = setUp();
    const { unmount } = render(view(true));
    unmount();
    expect(idle.size).toBe(0);
    runIdle();
    expect(warmCallMedia).not.toHaveBeenCalled();
  });

  it('without idle callbacks it loads in a task after the render', async () => {
    vi.useFakeTimers();
    try {
      const { warmCallMedia, view } = setUp();
      delete w.requestIdleCallback;
      render(view(true));
      expect(warmCallMedia).not.toHaveBeenCalled();
      await act(async () => { await vi.runAllTimersAsync(); });
      expect(warmCallMedia).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
