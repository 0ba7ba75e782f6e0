import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { DbHandle } from './database.js';
import { initialMigration } from './migrations/001_initial.js';
import { usersSearchTextMigration } from './migrations/002_users_search_text.js';
import { messageSearchMigration } from './migrations/003_message_search.js';
import { messageEditsMigration } from './migrations/005_message_edits.js';
import { inboxIndexesMigration } from './migrations/004_inbox_indexes.js';
import { unreadTicketsIndexMigration } from './migrations/006_unread_tickets_index.js';
import { outboundQueueMigration } from './migrations/008_outbound_queue.js';
import { refreshTokenFamiliesMigration } from './migrations/009_refresh_token_families.js';
import { campaignsMigration } from './migrations/010_campaigns.js';
import { groupCampaignsMigration } from './migrations/011_group_campaigns.js';
import { emailsMigration } from './migrations/012_emails.js';
import { chatbotMigration } from './migrations/013_chatbot.js';
import { phoneCampaignsMigration } from './migrations/014_phone_campaigns.js';
import { leasesMigration } from './migrations/015_leases.js';
import { simulatorPhonesMigration } from './migrations/016_simulator_phones.js';
import { contactSearchTrigramsMigration } from './migrations/017_contact_search_trigrams.js';
import { messageSearchByTicketMigration } from './migrations/018_message_search_by_ticket.js';
import { messageFilesMigration } from './migrations/019_message_files.js';
import { messageSendersMigration } from './migrations/020_message_senders.js';
import { signInSafetyMigration } from './migrations/026_sign_in_safety.js';
import { twoFactorMigration } from './migrations/023_two_factor.js';
import { apiTokensMigration } from './migrations/022_api_tokens.js';
import { auditEventsMigration } from './migrations/024_audit_events.js';
import { webhookReplaysMigration } from './migrations/025_webhook_replays.js';
import { rolesMigration } from './migrations/021_roles.js';
import { whaticketImportMigration } from './migrations/027_whaticket_import.js';
import { ticketPreviewMigration } from './migrations/030_ticket_preview.js';
import { firstRunChecklistMigration } from './migrations/032_first_run_checklist.js';
import { ticketRatingsMigration } from './migrations/037_ticket_ratings.js';
import { messageReactionsMigration } from './migrations/039_message_reactions.js';
import { businessHoursMigration } from './migrations/035_business_hours.js';
import { labelsMigration } from './migrations/033_labels.js';
import { notesMentionsMigration } from './migrations/034_notes_mentions.js';
import { queueAssignmentMigration } from './migrations/036_queue_assignment.js';
import { ticketReportTimesMigration } from './migrations/038_ticket_report_times.js';
import { reportFilterIndexesMigration } from './migrations/040_report_filter_indexes.js';
import { webhooksMigration } from './migrations/041_webhooks.js';
import { searchWalkIndexMigration } from './migrations/042_search_walk_index.js';
import { reportDurationsMigration } from './migrations/043_report_durations.js';
import { ticketTabIndexMigration } from './migrations/045_ticket_tab_index.js';
import { contactSearchGramsMigration } from './migrations/046_contact_search_grams.js';
import { ticketFirstAnswerMigration } from './migrations/047_ticket_first_answer.js';

/** Migrations live in code and run at every start; each runs once, in name order. */
/** Applies what is pending; answers the names of the migrations it applied. */
export async function migrateToLatest(handle: DbHandle): Promise<string[]> {
  return migrate(handle, (migrator) => migrator.migrateToLatest());
}

/** Runs the migrations up to and including `name` only (tests of a migration on older data). */
export async function migrateUpTo(handle: DbHandle, name: string): Promise<void> {
  await migrate(handle, (migrator) => migrator.migrateTo(name));
}

/** Every migration by name (the importer's dry run applies the pending ones inside a transaction it rolls back). */
export function migrationsFor(kind: DbHandle['kind']): Record<string, Migration> {
  const handle = { kind };
  return {
    '001_initial': initialMigration(handle.kind),
    '002_users_search_text': usersSearchTextMigration(),
    '003_message_search': messageSearchMigration(handle.kind),
    '004_inbox_indexes': inboxIndexesMigration(),
    '005_message_edits': messageEditsMigration(),
    '006_unread_tickets_index': unreadTicketsIndexMigration(),
    '008_outbound_queue': outboundQueueMigration(handle.kind),
    '009_refresh_token_families': refreshTokenFamiliesMigration(handle.kind),
    '010_campaigns': campaignsMigration(handle.kind),
    '011_group_campaigns': groupCampaignsMigration(handle.kind),
    '012_emails': emailsMigration(handle.kind),
    '013_chatbot': chatbotMigration(handle.kind),
    '014_phone_campaigns': phoneCampaignsMigration(handle.kind),
    '015_leases': leasesMigration(handle.kind),
    '016_simulator_phones': simulatorPhonesMigration(handle.kind),
    '017_contact_search_trigrams': contactSearchTrigramsMigration(handle.kind),
    '018_message_search_by_ticket': messageSearchByTicketMigration(handle.kind),
    '019_message_files': messageFilesMigration(),
    '020_message_senders': messageSendersMigration(),
    '026_sign_in_safety': signInSafetyMigration(handle.kind),
    '023_two_factor': twoFactorMigration(handle.kind),
    '022_api_tokens': apiTokensMigration(handle.kind),
    '024_audit_events': auditEventsMigration(handle.kind),
    '025_webhook_replays': webhookReplaysMigration(handle.kind),
    '021_roles': rolesMigration(handle.kind),
    '027_whaticket_import': whaticketImportMigration(handle.kind),
    '030_ticket_preview': ticketPreviewMigration(),
    '032_first_run_checklist': firstRunChecklistMigration(handle.kind),
    '037_ticket_ratings': ticketRatingsMigration(handle.kind),
    '039_message_reactions': messageReactionsMigration(handle.kind),
    '035_business_hours': businessHoursMigration(handle.kind),
    '033_labels': labelsMigration(handle.kind),
    '034_notes_mentions': notesMentionsMigration(handle.kind),
    '036_queue_assignment': queueAssignmentMigration(handle.kind),
    '038_ticket_report_times': ticketReportTimesMigration(handle.kind),
    '040_report_filter_indexes': reportFilterIndexesMigration(),
    '041_webhooks': webhooksMigration(handle.kind),
    '042_search_walk_index': searchWalkIndexMigration(handle.kind),
    '043_report_durations': reportDurationsMigration(handle.kind),
    '045_ticket_tab_index': ticketTabIndexMigration(),
    '046_contact_search_grams': contactSearchGramsMigration(handle.kind),
    '047_ticket_first_answer': ticketFirstAnswerMigration(handle.kind),
  };
}

async function migrate(handle: DbHandle, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<string[]> {
  const migrations = migrationsFor(handle.kind);
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db: handle.db, provider });
  const { error, results } = await run(migrator);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The names of the migrations this version knows that the database has not applied yet (read only). */
export async function pendingMigrations(handle: DbHandle): Promise<string[]> {
  const migrations = migrationsFor(handle.kind);
  const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}
