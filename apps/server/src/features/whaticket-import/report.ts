/** What a run did, table by table, and every row it changed or skipped with the rule that said so. */

export const TABLES = ['Queues', 'Whatsapps', 'WhatsappQueues', 'Users', 'UserQueues', 'Contacts', 'ContactCustomFields', 'Tickets', 'Messages', 'QuickAnswers', 'Settings'] as const;
export type TableName = (typeof TABLES)[number];

export type TableCounts = { read: number; imported: number; existing: number; changed: number; skipped: number; updated: number };

export type Rule =
  | 'email-exists'
  | 'hash-unverifiable'
  | 'profile-unknown'
  | 'queue-name-exists'
  | 'queue-color-taken'
  | 'connection-name-exists'
  | 'second-default-connection'
  | 'number-normalised'
  | 'number-empty'
  | 'duplicate-number'
  | 'contact-number-exists'
  | 'missing-contact'
  | 'missing-user'
  | 'missing-queue'
  | 'missing-whatsapp'
  | 'status-unknown'
  | 'duplicate-active-ticket'
  | 'missing-ticket'
  | 'quoted-missing'
  | 'media-missing'
  | 'media-unsafe-name'
  | 'setting-unknown'
  | 'shortcut-exists';

export type Change = { table: TableName; sourceId: string; action: 'changed' | 'skipped'; rule: Rule; detail: string };

export type ReportJson = {
  tables: Record<string, TableCounts>;
  changes: Change[];
  warnings: string[];
  dryRun: boolean;
  source: string;
  durationMs: number;
};

export class Report {
  readonly tables = new Map<TableName, TableCounts>();
  readonly changes: Change[] = [];
  readonly warnings: string[] = [];
  /** Rows already counted as changed, so a row with two changes counts once. */
  private readonly changedRows = new Set<string>();

  constructor(
    readonly source: string,
    readonly dryRun: boolean,
    private readonly startedAt = Date.now(),
  ) {
    for (const table of TABLES) this.tables.set(table, { read: 0, imported: 0, existing: 0, changed: 0, skipped: 0, updated: 0 });
  }

  counts(table: TableName): TableCounts {
    const counts = this.tables.get(table);
    if (!counts) throw new Error(`unknown table ${table}`);
    return counts;
  }

  add(table: TableName, field: keyof TableCounts, n = 1): void {
    this.counts(table)[field] += n;
  }

  /** A row written with a change: counted in `changed` once, listed per rule. */
  changed(table: TableName, sourceId: unknown, rule: Rule, detail: string): void {
    this.changes.push({ table, sourceId: String(sourceId), action: 'changed', rule, detail });
    const key = `${table}:${String(sourceId)}`;
    if (!this.changedRows.has(key)) {
      this.changedRows.add(key);
      this.add(table, 'changed');
    }
  }

  /** A row not written. */
  skipped(table: TableName, sourceId: unknown, rule: Rule, detail: string): void {
    this.changes.push({ table, sourceId: String(sourceId), action: 'skipped', rule, detail });
    this.add(table, 'skipped');
  }

  warn(text: string): void {
    this.warnings.push(text);
  }

  toJSON(): ReportJson {
    return {
      tables: Object.fromEntries(this.tables),
      changes: this.changes,
      warnings: this.warnings,
      dryRun: this.dryRun,
      source: this.source,
      durationMs: Date.now() - this.startedAt,
    };
  }
}
