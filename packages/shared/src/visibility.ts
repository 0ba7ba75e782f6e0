/**
 * Who may see a ticket: the one description of the rule. The server turns the clauses into SQL
 * for lists and counts, and evaluates them for a single ticket; the socket gateway names its
 * rooms after the audiences below; the web app merges live events with the same predicate.
 *
 * - Admins see every ticket; with 'All' off their lists narrow like an agent's. A user whose role
 *   holds the allQueues permission has the same 'All' switch (`allQueues`).
 * - Everyone sees the tickets assigned to them, whatever the queue.
 * - Unassigned tickets: those of one's queues; those without a queue for anyone in a queue
 *   (an admin counts as in one). Someone in no queue sees no unassigned ticket.
 */
/** `allQueues`: may turn 'All' on and see every ticket (admins, and users whose role holds allQueues). */
export type Viewer = { id: number; admin: boolean; allQueues: boolean; queueIds: readonly number[] };
export type TicketShape = { userId: number | null; queueId: number | null };

/** One way to be allowed: every field it names must match. */
export type VisibilityClause = { kind: 'everything' } | { kind: 'assignedTo'; userId: number } | { kind: 'unassignedIn'; queueIds: readonly number[] } | { kind: 'unassignedWithoutQueue' };

/** The clauses, any one of which lets `viewer` see a ticket; `all` is the 'All' switch (admins, allQueues). */
export function visibilityClauses(viewer: Viewer, options: { all: boolean }): VisibilityClause[] {
  if ((viewer.admin || viewer.allQueues) && options.all) return [{ kind: 'everything' }];
  const clauses: VisibilityClause[] = [{ kind: 'assignedTo', userId: viewer.id }];
  if (viewer.queueIds.length > 0) clauses.push({ kind: 'unassignedIn', queueIds: viewer.queueIds });
  if (viewer.admin || viewer.queueIds.length > 0) clauses.push({ kind: 'unassignedWithoutQueue' });
  return clauses;
}

export function clauseMatches(clause: VisibilityClause, ticket: TicketShape): boolean {
  switch (clause.kind) {
    case 'everything':
      return true;
    case 'assignedTo':
      return ticket.userId === clause.userId;
    case 'unassignedIn':
      return ticket.userId === null && ticket.queueId !== null && clause.queueIds.includes(ticket.queueId);
    case 'unassignedWithoutQueue':
      return ticket.userId === null && ticket.queueId === null;
  }
}

/** Whether `viewer` sees `ticket`: in a list with 'All' as given, or (all: true) at all. */
export function canSeeTicket(viewer: Viewer, ticket: TicketShape, options: { all: boolean }): boolean {
  return visibilityClauses(viewer, options).some((clause) => clauseMatches(clause, ticket));
}

/**
 * Live events: the audiences a ticket's events go to, and those a viewer belongs to (with
 * 'All' on for admins, as their web app then filters by the predicate above). A viewer hears a
 * ticket exactly when the two share an audience.
 */
export function ticketAudiences(ticket: TicketShape): string[] {
  if (ticket.userId !== null) return ['admins', 'allQueues', `user:${ticket.userId}`];
  if (ticket.queueId !== null) return ['admins', 'allQueues', `queue:${ticket.queueId}`];
  return ['admins', 'allQueues', 'queued'];
}

export function viewerAudiences(viewer: Viewer): string[] {
  return [...(viewer.admin ? ['admins'] : viewer.allQueues ? ['allQueues'] : []), `user:${viewer.id}`, ...viewer.queueIds.map((q) => `queue:${q}`), ...(viewer.queueIds.length > 0 ? ['queued'] : [])];
}
