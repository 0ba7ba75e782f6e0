/**
 * Numbers typed on any page read by the server's rule (shared phone-numbers.ts) with the
 * install's default country code, so forms show what a number becomes before it is sent.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { readNumber, type NumberRule, type ReadNumber } from '@zapdesk/shared/phone-numbers';
import { request } from '../api/client';

export const phoneNumbersKey = ['settings', 'phoneNumbers'] as const;

export function useDefaultCountryCode(): string | undefined {
  const query = useQuery({ queryKey: phoneNumbersKey, queryFn: () => request<{ defaultCountryCode: string }>('/settings/phone-numbers'), staleTime: 60_000 });
  return query.data?.defaultCountryCode;
}

/** The reader of typed numbers for `rule` (WhatsApp's unless told); the default country code '' until it has loaded. */
export function useNumberReader(rule: NumberRule = 'whatsapp'): (typed: string) => ReadNumber {
  const countryCode = useDefaultCountryCode() ?? '';
  return useCallback((typed: string) => readNumber(typed, { countryCode, rule }), [countryCode, rule]);
}

/** After an admin changes the setting: every form reads numbers the new way. */
export function forgetDefaultCountryCode(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: phoneNumbersKey });
}
