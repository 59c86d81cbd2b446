/// <reference types="vite/client" />
interface ImportMetaEnv {
  readonly VITE_API_BASE?: string;
  readonly VITE_AES_KEY?: string;
  readonly VITE_AES_IV?: string;
  readonly VITE_APP_ID?: string;
  readonly VITE_REALTIME?: string;
  readonly VITE_NIM_APPKEY?: string;
  readonly VITE_PRESENCE_URL?: string;
  /** '1': a production build keeps `?inspect=1` (src/app/inspector.ts); otherwise it is development only. */
  readonly VITE_INSPECTOR?: string;
  /** '1': a production build takes the development-only settings of the address (src/app/devSettings.ts); the e2e build does. */
  readonly VITE_TEST_HOOKS?: string;
}
