/** 'Reenviar': sends a delivery again and shows the server's answer at once, in the lists and in a toast. */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'react-toastify';
import type { TWebhookDelivery } from '@zapdesk/shared/webhooks';
import { toastError } from '../../core/ui/toastError';
import { followDelivery } from './followDelivery';
import { resendDelivery } from './webhooks.api';
import { outcomeToast } from './webhookText';

export function useResend(webhookId: number) {
  const queryClient = useQueryClient();
  const [resending, setResending] = useState<string | null>(null);
  const resend = async (delivery: Pick<TWebhookDelivery, 'id'>) => {
    setResending(delivery.id);
    try {
      const followed = await followDelivery(queryClient, await resendDelivery(webhookId, delivery.id));
      const outcome = outcomeToast(followed, { delivered: 'webhooks.list.resendDelivered', failed: 'webhooks.list.resendNotDelivered', stored: 'webhooks.list.resendStored' });
      toast[outcome.kind](outcome.text);
    } catch (error) {
      toastError(error);
    } finally {
      setResending(null);
    }
  };
  return { resend, resending };
}
