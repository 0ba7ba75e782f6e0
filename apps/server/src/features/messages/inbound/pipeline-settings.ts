/** The settings and queues the pipeline reads once per batch of a connection's messages. */
import type { Db } from '../../../core/db/database.js';
import { readQueueRules, type QueueRule } from '../../business-hours/business-hours.repository.js';
import { closedNowSuffix } from '../../business-hours/out-of-hours.js';
import { readBotSettings, type BotSettings } from '../../chatbot/chatbot.service.js';
import { getSettingValue } from '../../settings/settings.repository.js';
import { listConnectionQueues } from '../../whatsapps/whatsapps.repository.js';

/** Settings, the connection's queues and each queue's opening hours, read once per batch. */
export type PipelineSettings = {
  acceptsGroups: boolean;
  routesGroups: boolean;
  reopenWithinSeconds: number;
  queues: ConnectionQueue[];
  bot: BotSettings | undefined;
  ruleOf: (queueId: number | null) => QueueRule;
  /** What the numbered menu puts after a queue closed now; '' when the menu shows no such mark. */
  closedNowSuffix: string;
};

export type ConnectionQueue = Awaited<ReturnType<typeof listConnectionQueues>>[number];

export async function readPipelineSettings(db: Db, whatsappId: number): Promise<PipelineSettings> {
  return {
    queues: await listConnectionQueues(db, whatsappId),
    // Group messages are taken only when CheckMsgIsGroup is disabled (see docs/decisions.md).
    acceptsGroups: (await getSettingValue(db, 'CheckMsgIsGroup')) === 'disabled',
    routesGroups: (await getSettingValue(db, 'groups')) === 'enabled',
    reopenWithinSeconds: Number(await getSettingValue(db, 'timeCreateNewTicket')) || 0,
    bot: await readBotSettings(db),
    ruleOf: await readQueueRules(db),
    closedNowSuffix: await closedNowSuffix(db),
  };
}
