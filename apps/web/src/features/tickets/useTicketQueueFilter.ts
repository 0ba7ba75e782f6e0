/**
 * The queue filter of the ticket lists. Its choices are the user's queues (admins, who may see
 * every queue, choose among all of them). By default the user's own queues are ticked; an admin
 * without queues gets every queue, or the filter would hide every queued ticket. The choice is
 * kept per user in localStorage as the queues left out, so a queue the user joins later shows.
 */
import { useCallback, useMemo, useState } from 'react';
import { isAdminProfile } from '@zapdesk/shared/domain';
import type { TQueueRef } from '@zapdesk/shared/schemas';
import { useAuth } from '../../core/auth/AuthProvider';
import { useQueues } from '../queues/queues.api';

const storageKey = (userId: number) => `zapdesk.ticketsQueueFilter.${userId}`;

function readExcluded(userId: number): number[] | null {
  try {
    const raw = localStorage.getItem(storageKey(userId));
    if (raw === null) return null;
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return null;
    return parsed.filter((id): id is number => typeof id === 'number');
  } catch {
    return null;
  }
}

function writeExcluded(userId: number, excluded: number[]): void {
  try {
    localStorage.setItem(storageKey(userId), JSON.stringify(excluded));
  } catch {
    // Private mode or a full storage: the choice lasts for this page only.
  }
}

export type TicketQueueFilter = {
  /** The queues the user may pick from. */
  options: TQueueRef[];
  selectedIds: number[];
  setSelectedIds: (ids: number[]) => void;
  /** What the lists send as queueIds; undefined when every queue is ticked. */
  queueIds: number[] | undefined;
  /** False while an admin's stored choice waits for the list of queues: the lists wait rather than load twice. */
  ready: boolean;
};

export function useTicketQueueFilter(): TicketQueueFilter {
  const { user } = useAuth();
  const userId = user?.id ?? 0;
  const isAdmin = user ? isAdminProfile(user.profile) : false;
  const ownQueues = useMemo(() => user?.queues ?? [], [user]);
  const allQueues = useQueues();
  const adminOptions = allQueues.data ?? (allQueues.isError ? ownQueues : undefined);
  const options = useMemo(() => (isAdmin ? (adminOptions ?? []) : ownQueues), [isAdmin, adminOptions, ownQueues]);

  const [excluded, setExcluded] = useState<number[] | null>(() => readExcluded(userId));
  const [excludedOwner, setExcludedOwner] = useState(userId);
  if (excludedOwner !== userId) {
    setExcludedOwner(userId);
    setExcluded(readExcluded(userId));
  }

  const selectedIds = useMemo(() => {
    if (excluded) return options.filter((queue) => !excluded.includes(queue.id)).map((queue) => queue.id);
    const own = new Set(ownQueues.map((queue) => queue.id));
    const mine = options.filter((queue) => own.has(queue.id)).map((queue) => queue.id);
    return mine.length > 0 || !isAdmin ? mine : options.map((queue) => queue.id);
  }, [excluded, options, ownQueues, isAdmin]);

  const setSelectedIds = useCallback(
    (ids: number[]) => {
      const next = options.filter((queue) => !ids.includes(queue.id)).map((queue) => queue.id);
      setExcluded(next);
      writeExcluded(userId, next);
    },
    [options, userId],
  );

  // What the lists send. Every queue ticked is no filter at all (the server keeps a user to their
  // queues anyway), and the defaults need no list of queues: the first screen does not wait for one.
  const queueIds = useMemo(() => {
    const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
    if (excluded === null) {
      const own = ownQueues.map((queue) => queue.id);
      return isAdmin && own.length > 0 ? sorted(own) : undefined;
    }
    const left = options.filter((queue) => !excluded.includes(queue.id));
    return left.length === options.length ? undefined : sorted(left.map((queue) => queue.id));
  }, [excluded, ownQueues, isAdmin, options]);
  // Only an admin's stored choice needs the list of every queue before the lists can ask.
  const ready = excluded === null || !isAdmin || adminOptions !== undefined;

  return { options, selectedIds, setSelectedIds, queueIds, ready };
}
