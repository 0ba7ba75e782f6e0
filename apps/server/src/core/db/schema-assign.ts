/** Auto-assignment's tables (migration 036). */

/**
 * One row per queue that an admin configured: whether new tickets are handed out, the limit of
 * open tickets of the queue per agent, and the round-robin pointer (the agent who got the last
 * one). The row is also the lock that makes each hand-out one atomic step across nodes.
 */
export type QueueAssignmentTable = {
  queueId: number;
  enabled: number;
  maxPerAgent: number;
  lastUserId: number | null;
  updatedAt: string;
};

export type AssignTables = { queueAssignment: QueueAssignmentTable };
