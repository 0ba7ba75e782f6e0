/**
 * Leaving a ticket on screen once it is gone. Deleted by someone else: the live 'delete' says so.
 * Deleted while this tab was not listening (the page was opening, or the network blipped): the
 * tab reads its tickets again once its socket has joined, the ticket then answers 404, and the
 * same words are said. Any other failed read shows its error. Each goes back to /tickets.
 */
import { useEffect } from 'react';
import type { TFunction } from 'i18next';
import type { NavigateFunction } from 'react-router';
import { toast } from 'react-toastify';
import { ApiError } from '../../core/api/ApiError';
import { toastError } from '../../core/ui/toastError';

/** Says once (whichever way the tab heard it) that the ticket on screen was deleted, and leaves it. */
export function leaveDeletedTicket(t: TFunction, navigate: NavigateFunction, ticketId: number): void {
  toast.info(t('tickets.deletedWhileOpen'), { toastId: `ticket-deleted-${ticketId}` });
  void navigate('/tickets');
}

/** The ticket's read failed: `shown` is whether the ticket was on screen before. */
export function useLeaveOnReadError(options: { error: Error | null; shown: boolean; ticketId: number; t: TFunction; navigate: NavigateFunction }): void {
  const { error, shown, ticketId, t, navigate } = options;
  useEffect(() => {
    if (!error) return;
    if (shown && error instanceof ApiError && error.status === 404) {
      leaveDeletedTicket(t, navigate, ticketId);
      return;
    }
    toastError(error);
    void navigate('/tickets');
    // Once per failed read: the ticket's own state changes nothing about what to say.
  }, [error]);
}
