import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ZWhatsappSchema } from '@zapdesk/shared/schemas';
import { request } from '../../core/api/client';

export const whatsappsKey = ['whatsapps'] as const;

export function fetchWhatsapps() {
  return request('/whatsapp', z.array(ZWhatsappSchema));
}

export function useWhatsapps(enabled = true) {
  return useQuery({ queryKey: whatsappsKey, queryFn: fetchWhatsapps, enabled });
}
