import * as call from './call';
import * as chat from './chat';
import * as config from './config';
import * as gift from './gift';
import * as home from './home';
import * as live from './live';
import * as media from './media';
import * as news from './news';
import * as people from './people';
import * as privateMsg from './private-msg';
import * as realtime from './realtime';
import * as session from './session';
import * as translator from './translator';
import * as wallet from './wallet';
import * as withdraw from './withdraw';

export * from './endpoint';
export { call, chat, config, gift, home, live, media, news, people, privateMsg, realtime, session, translator, wallet, withdraw };

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
  indexTag: home.indexTag,
  anchorList: home.anchorList,
  getCountryList: home.getCountryList,
  getAppPicByType: home.getAppPicByType,
  getBaseConfigForIntoBagV2: home.getBaseConfigForIntoBagV2,
  getBaseConfigForIntoBagV4: home.getBaseConfigForIntoBagV4,
  getUserDetail: people.getUserDetail,
  checkUserInfo: people.checkUserInfo,
  followUser: people.followUser,
  followList: people.followList,
  updateUserInfo: people.updateUserInfo,
  anchorGetUserList: people.anchorGetUserList,
  queryLiveList: live.queryLiveList,
  queryMyFollowLive: live.queryMyFollowLive,
  checkLiveBroadcastPermission: live.checkLiveBroadcastPermission,
  beginLiveRoom: live.beginLiveRoom,
  endLiveRoom: live.endLiveRoom,
  getMyLiveRoomV2: live.getMyLiveRoomV2,
  updatePrivateCall: live.updatePrivateCall,
  getAnchorWishlist: live.getAnchorWishlist,
  setAnchorWishlist: live.setAnchorWishlist,
  queryLiveStat: live.queryLiveStat,
  getRoomAndJoinRoom: live.getRoomAndJoinRoom,
  leaveLiveRoom: live.leaveLiveRoom,
  liveHeartBeatV2: live.liveHeartBeatV2,
  sendRank: live.sendRank,
  liveGiftTask: live.liveGiftTask,
  createCall: call.createCall,
  joinCall: call.joinCall,
  callTerms: call.callTerms,
  endCall: call.endCall,
  callRate: call.callRate,
  callRecordList: call.callRecordList,
  callRecordDetail: call.callRecordDetail,
  getGiftList: gift.getGiftList,
  sendGift: gift.sendGift,
  askForGift: gift.askForGift,
  refuseAskGift: gift.refuseAskGift,
  rechargeListV4: wallet.rechargeListV4,
  vipGetShopInfo: wallet.vipGetShopInfo,
  createOrder: wallet.createOrder,
  queryUsdtOrderStat: wallet.queryUsdtOrderStat,
  myWallet: wallet.myWallet,
  orderList: wallet.orderList,
  flowList: wallet.flowList,
  myBalance: withdraw.myBalance,
  incomeFlowList: withdraw.incomeFlowList,
  hostWallet: withdraw.hostWallet,
  withdrawAccountList: withdraw.withdrawAccountList,
  addWithdrawAccount: withdraw.addWithdrawAccount,
  getAnchorWithDrawConfig: withdraw.getAnchorWithDrawConfig,
  setWithdrawPassWord: withdraw.setWithdrawPassWord,
  applyWithdrawV2: withdraw.applyWithdrawV2,
  withdrawRecord: withdraw.withdrawRecord,
} as const;
