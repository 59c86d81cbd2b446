import * as config from './config';
import * as realtime from './realtime';
import * as session from './session';

export * from './endpoint';
export { config, realtime, session };

/** Every declared endpoint (and nothing else); the reference server registers exactly these. */
export const endpoints = {
  login: session.login,
  register: session.register,
  visit: session.visit,
  userInfo: session.userInfo,
  logout: session.logout,
  getAgoraRtmToken: realtime.getAgoraRtmToken,
  getChatRoomAddress: realtime.getChatRoomAddress,
  getCustomerServiceList: realtime.getCustomerServiceList,
  getConfigByKey: config.getConfigByKey,
} as const;
