/** Two-step verification's calls: the sign-in's second step, and one's own set-up in the profile. */
import type { TLoginResponse } from '@zapdesk/shared/schemas';
import type { TLoginWithRecoveryCodes, TRecoveryCodes, TTwoFactorDisable, TTwoFactorSetup, TTwoFactorStatus } from '@zapdesk/shared/two-factor';
import { request, requestVoid } from '../../core/api/client';

export const twoFactorKeys = { status: ['auth', '2fa'] as const };

export function loginWithCode(challenge: string, code: string) {
  return request<TLoginResponse>('/auth/login/2fa', { method: 'POST', body: { challenge, code }, sessionless: true });
}

export function loginSetup(challenge: string) {
  return request<TTwoFactorSetup>('/auth/login/2fa/setup', { method: 'POST', body: { challenge }, sessionless: true });
}

export function loginEnable(challenge: string, code: string) {
  return request<TLoginWithRecoveryCodes>('/auth/login/2fa/enable', { method: 'POST', body: { challenge, code }, sessionless: true });
}

export function fetchTwoFactorStatus() {
  return request<TTwoFactorStatus>('/auth/2fa');
}

export function beginTwoFactorSetup() {
  return request<TTwoFactorSetup>('/auth/2fa/setup', { method: 'POST' });
}

export async function enableTwoFactor(code: string): Promise<string[]> {
  return (await request<TRecoveryCodes>('/auth/2fa/enable', { method: 'POST', body: { code } })).recoveryCodes;
}

export function disableTwoFactor(input: TTwoFactorDisable) {
  return requestVoid('/auth/2fa/disable', { method: 'POST', body: input });
}

export async function regenerateRecoveryCodes(code: string): Promise<string[]> {
  return (await request<TRecoveryCodes>('/auth/2fa/recovery-codes', { method: 'POST', body: { code } })).recoveryCodes;
}

/** An admin turns off another user's two-step verification. */
export function resetTwoFactor(userId: number) {
  return requestVoid(`/users/${userId}/2fa`, { method: 'DELETE' });
}
