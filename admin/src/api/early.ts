import { getSettingInfo } from './calls';
import { lookingAtCall } from './client';

// The session's first read (getSettingInfo) started while the app's code is still evaluating, before
// React renders (issue 26): the shell used to send it only after its first render, and on a phone every
// screen waits for its answer (language, plan, guide state). The shell takes the answer once
// (takeEarlySettingInfo); later reads (after a session change, a retry) go to the server again.
let early: ReturnType<typeof getSettingInfo> | null = null;

export function startEarlySettingInfo(): void {
  early = getSettingInfo();
  early.catch(() => undefined); // the shell handles the failure when it takes the answer
}

export function takeEarlySettingInfo(): ReturnType<typeof getSettingInfo> | null {
  if (lookingAtCall()) return null; // only looked at (client.ts documentAnswerOf): the real call takes it
  const answer = early;
  early = null;
  return answer;
}
