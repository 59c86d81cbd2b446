import * as session from './session';

export * from './endpoint';
export { session };

/** Every declared endpoint (and nothing else); the reference server registers exactly these. */
export const endpoints = {
  login: session.login,
  register: session.register,
  visit: session.visit,
  userInfo: session.userInfo,
  logout: session.logout,
} as const;
