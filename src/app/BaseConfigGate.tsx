/**
 * The app's settings (SPEC §3 Base config, §7 "retried up to 3 times" "or by app id", §8 "Base
 * config failure throws after 3 retries"): a base-config actor per session loads them while the
 * app runs, and one for the pages without a session (login, register, landing) by the app id
 * alone; when every try has failed, a clear error screen with Retry takes the place of the
 * screens. Screens read the settings with `useAppSettings()`.
 */
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../ui/useScreenActor';
import { createContext, useContext, useMemo } from 'react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { fromPromise } from 'xstate';
import { ServerUnreachable, baseConfigMachine } from '../../machines/base-config/base-config.machine';
import { ApiError } from '../api/outcome';
import type { AppSettings, BaseConfigSource } from '../../machines/base-config/base-config.machine';
import { selectBaseConfigError, selectBaseConfigPhase, selectSettings } from '../../machines/base-config/base-config.selectors';
import { loadAppSettings, loadAppSettingsByAppId } from './appSettings';
import { useServices } from '../compose/services';

type BaseConfigRef = ActorRefFrom<typeof baseConfigMachine>;

const BaseConfigContext = createContext<BaseConfigRef | null>(null);

/** The app settings once loaded; null before (or outside a session). */
export function useAppSettings(): AppSettings | null {
  return useSelector(useContext(BaseConfigContext) ?? undefined, (s) => (s ? selectSettings(s) : null)) ?? null;
}

/** One try: a failure with no answer at all is the connection's trouble, not the settings' (the machine waits for the server). */
async function tryLoading(load: () => Promise<AppSettings>): Promise<AppSettings> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout')) throw new ServerUnreachable(error.message);
    throw error;
  }
}

/** `source`: for the signed-in session (default), or by the app id alone on the pages without one. */
export function BaseConfigGate({ children, source = 'session' }: { children: ReactNode; source?: BaseConfigSource }) {
  const { api } = useServices();
  const logic = useMemo(() => baseConfigMachine.provide({
    actors: {
      loadForSession: fromPromise<AppSettings, void>(() => tryLoading(() => loadAppSettings(api))),
      loadByAppId: fromPromise<AppSettings, void>(() => tryLoading(() => loadAppSettingsByAppId(api))),
    },
  }), [api]);
  const baseConfig = useScreenActor(logic, { input: { source } });
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
