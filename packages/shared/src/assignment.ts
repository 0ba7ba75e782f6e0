/**
 * Auto-assignment of a queue: off by default; when on, new tickets of the queue go in turn to
 * its agents who are online, each up to `maxPerAgent` open tickets of that queue.
 */
import { z } from 'zod';

/** The limit a queue starts with when an admin turns auto-assignment on. */
export const ASSIGNMENT_DEFAULT_MAX_PER_AGENT = 3;
export const ASSIGNMENT_MAX_PER_AGENT_LIMIT = 100;

export const ZQueueAssignmentInputSchema = z.object({
  enabled: z.boolean(),
  maxPerAgent: z.number().int().min(1).max(ASSIGNMENT_MAX_PER_AGENT_LIMIT),
});
export type TQueueAssignmentInput = z.infer<typeof ZQueueAssignmentInputSchema>;

export const ZQueueAssignmentSchema = ZQueueAssignmentInputSchema.extend({ queueId: z.number().int() });
export type TQueueAssignment = z.infer<typeof ZQueueAssignmentSchema>;
