// @vitest-environment jsdom
/**
 * lazyComponent: a component's code is fetched once and shared by the preload and the render; a failed
 * fetch reaches the error boundary and stays failed (no fetching in a loop) until Try again lets it
 * fetch again (no page reload).
 */
import { CatchBoundary } from '@tanstack/react-router';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { lazyComponent, retryFailedLoads } from './lazyComponent';

afterEach(cleanup);

const Hello = () => <h1>Hello</h1>;

function Failed({ error, reset }: ErrorComponentProps) {
  const retry = () => {
    retryFailedLoads();
    reset();
  };
  return <button type="button" onClick={retry}>{`Failed: ${(error as Error).message}`}</button>;
}

/** Renders, and lets the fetch settle (React retries a suspended render when its promise settles). */
async function mount(Lazy: ReturnType<typeof lazyComponent>) {
  await act(async () => { render(
    <CatchBoundary getResetKey={() => 'screen'} errorComponent={Failed}>
      <Suspense fallback={<p>Loading</p>}>
        <Lazy />
      </Suspense>
    </CatchBoundary>,
  ); });
}

describe('lazyComponent', () => {
  it('fetches the code once for the preload and the render', async () => {
    const load = vi.fn(async () => ({ default: Hello }));
    const Lazy = lazyComponent(load);
    const preloads = [Lazy.preload(), Lazy.preload()];
    expect(preloads[0]).toBe(preloads[1]);
    await Promise.all(preloads);
    await mount(Lazy);
    expect(await screen.findByRole('heading', { name: 'Hello' })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows a failed fetch to the error boundary, and Try again fetches again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi.fn()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce({ default: Hello });
    const Lazy = lazyComponent(load);
    await mount(Lazy);
    const retry = await screen.findByRole('button', { name: 'Failed: Failed to fetch dynamically imported module' });
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => retry.click());
    expect(await screen.findByRole('heading', { name: 'Hello' })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not fetch again in a loop while the failure is being shown', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi.fn().mockRejectedValue(new Error('offline'));
    const Lazy = lazyComponent(load);
    await mount(Lazy);
    await screen.findByRole('button', { name: 'Failed: offline' });
    await act(async () => { await new Promise((resolve) => setTimeout(resolve, 50)); });
    expect(load).toHaveBeenCalledTimes(1);
  });
});
