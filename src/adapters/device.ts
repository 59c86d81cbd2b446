/**
 * Device data for sign-ins made inside the web app (login, register, visitor entry) when
 * the shell supplied none: a stable random device id kept in storage, and what the
 * browser says of its platform.
 */
import type { DeviceInfo } from '../api/contract/session';
import { APP_VERSION } from '../api/codes';
import { readDeviceId, writeDeviceId } from './storage';

function platform(): { osType: string; osVersion: string } {
  const ua = navigator.userAgent;
  const android = /Android\s([\d.]+)/.exec(ua);
  if (android) return { osType: 'android', osVersion: android[1]! };
  const ios = /OS (\d+[_\d]*) like Mac OS X/.exec(ua);
  if (ios) return { osType: 'ios', osVersion: ios[1]!.replace(/_/g, '.') };
  return { osType: 'web', osVersion: '0' };
}

export function currentDevice(): DeviceInfo {
  let id = readDeviceId();
  if (!id) {
    id = crypto.randomUUID();
    writeDeviceId(id);
  }
  return { deviceType: 'web', deviceId: id, deviceNo: id, ...platform(), appVersion: APP_VERSION };
}
