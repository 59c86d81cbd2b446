import * as chat from './chat';
import * as config from './config';
import * as news from './news';
import * as privateMsg from './private-msg';
import * as realtime from './realtime';
import * as session from './session';
import * as translator from './translator';

export * from './endpoint';
export { chat, config, news, privateMsg, realtime, session, translator };

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
  loadList: news.loadList,
  batchQueryYxStat: news.batchQueryYxStat,
  batchQueryYxStatByUid: news.batchQueryYxStatByUid,
  blockUser: chat.blockUser,
  removeBlockUser: chat.removeBlockUser,
  getCustomerReplyInfo: chat.getCustomerReplyInfo,
  getFeedbackType: chat.getFeedbackType,
  getAnchorFeedbackSubmit: chat.getAnchorFeedbackSubmit,
  uploadPrivateInfo: privateMsg.uploadPrivateInfo,
  privateInfo: privateMsg.privateInfo,
} as const;
