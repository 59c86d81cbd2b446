/**
 * The signed-in app's settings (SPEC §3 Base config, §7 "retried up to 3 times", §8 "Base
 * config failure throws after 3 retries"): a base-config actor per session loads them while
 * the app runs; when every try has failed, a clear error screen with Retry takes the place of
 * the screens. Screens read the settings with `useAppSettings()`.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useContext, useMemo } from 'react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { fromPromise } from 'xstate';
import { ServerUnreachable, baseConfigMachine } from '../../machines/base-config/base-config.machine';
import { ApiError } from '../api/outcome';
import type { AppSettings } from '../../machines/base-config/base-config.machine';
import { selectBaseConfigError, selectBaseConfigPhase, selectSettings } from '../../machines/base-config/base-config.selectors';
import { loadAppSettings } from './appSettings';
import { useServices } from './services';

type BaseConfigRef = ActorRefFrom<typeof baseConfigMachine>;

const BaseConfigContext = createContext<BaseConfigRef | null>(null);

/** The app settings once loaded; null before (or outside a session). */
export function useAppSettings(): AppSettings | null {
  return useSelector(useContext(BaseConfigContext) ?? undefined, (s) => (s ? selectSettings(s) : null)) ?? null;
}

export function BaseConfigGate({ children }: { children: ReactNode }) {
  const { api } = useServices();
  const logic = useMemo(() => baseConfigMachine.provide({
    actors: {
      load: fromPromise<AppSettings, void>(async () => {
        try {
          return await loadAppSettings(api);
        } catch (error) {
          // No answer at all: the connection's trouble, not the settings' (the machine waits for the server).
          if (error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout')) throw new ServerUnreachable(error.message);
          throw error;
        }
      }),
    },
  }), [api]);
  const baseConfig = useActorRef(logic);
  const phase = useSelector(baseConfig, selectBaseConfigPhase);
  if (phase === 'failed') return <BaseConfigFailed baseConfig={baseConfig} />;
  return <BaseConfigContext.Provider value={baseConfig}>{children}</BaseConfigContext.Provider>;
}

function BaseConfigFailed({ baseConfig }: { baseConfig: BaseConfigRef }) {
  const reason = useSelector(baseConfig, selectBaseConfigError);
  return (
    <section className="centered-panel" role="alert" aria-labelledby="base-config-failed-title" data-testid="base-config-failed">
      <h1 id="base-config-failed-title" className="screen-title">We couldn't load the app settings</h1>
      <p className="muted">{reason ? `${reason} ` : ''}Check your connection and try again.</p>
      <button type="button" className="button-link button-primary" onClick={() => baseConfig.send({ type: 'baseConfig.retry' })}>
        Retry
      </button>
    </section>
  );
}
