import * as session from './session';

export * from './endpoint';
export { session };

/** Every declared endpoint; the reference server registers exactly these. */
export const endpoints = { ...session } as const;
