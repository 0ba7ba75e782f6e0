/**
 * bench:load's request kinds, the web app's requests for each, whaticket's reference and the
 * targets (issue 30: the same targets at every scale; ratios to the same-run bare route).
 */
export type DbKind = 'sqlite' | 'postgres';
export type RequestKind = 'baseline' | 'list' | 'bell' | 'chat' | 'search' | 'contacts' | 'ingesting';
export type Case = { name: string; kind: RequestKind; user: 'agent' | 'admin'; path: string };
export type User = { token: string; id: number; queueIds: number[] };

/** whaticket on MariaDB, same machine and the 1x data (the reference of issue 4). */
export const REFERENCE = {
  system: 'whaticket backend on MariaDB, same kind of machine, the 1x data',
  list: { requestsPerSecond: 45, p99Ms: 300 },
  search: { requestsPerSecond: 1, p50Ms: 12000 },
  chat: { requestsPerSecond: 230 },
  contacts: { requestsPerSecond: 40 },
};

/** The targets, the same at 0.1x, 1x and 10x: a list's cost must not grow with the data. */
export function targetsFor(kind: DbKind) {
  const minOfBare = kind === 'sqlite' ? 0.33 : 0.25;
  return {
    list: { maxP99Ms: 25, minOfBare, what: 'every ticket list tab (agent and admin)' },
    bell: { maxP99Ms: 25, minOfBare, what: 'the notification bell' },
    chat: { maxP99Ms: 25, minOfBare, what: "a chat's page (a long ticket's messages)" },
    newWord: { maxP99Ms: 50, what: 'a word never asked before, one at a time, across the whole vocabulary' },
    ingesting: { maxP99Ms: 25, what: "the agent's lists while the pipeline ingests 200 messages/s" },
    contacts: { maxP99Ms: 25, what: 'contact search' },
    dashboard: { maxMs: 500, what: 'the dashboard, slowest of its runs (nothing memoised)' },
    reports: { maxMs: 500, what: 'each report, slowest of its runs' },
    memory: { maxOfOneX: 1.5, what: "the server's heap after the run and a forced GC, against the 1x run" },
  };
}
export type Targets = ReturnType<typeof targetsFor>;

/** The web app's ticket list request for a user (with its queueIds, as the app sends them). */
export function listPath(user: User, isAdmin: boolean, params: Record<string, string>): string {
  return `/api/tickets?${new URLSearchParams({ pageNumber: '1', showAll: isAdmin ? 'true' : 'false', queueIds: JSON.stringify(user.queueIds), ...params }).toString()}`;
}

/** Every repeated-request case: the baselines, each tab for an agent and an admin, the bell, a search, a chat, contacts. */
export function buildCases(agent: User, admin: User, longTicket: { id: number; n: number }): Case[] {
  // Same-run baselines: the framework alone, then the token check and a tiny query.
  const cases: Case[] = [
    { name: 'baseline: GET /api/health (no token, no database)', kind: 'baseline', user: 'admin', path: '/api/health' },
    { name: 'baseline: GET /api/queue (token check, one tiny query)', kind: 'baseline', user: 'agent', path: '/api/queue' },
  ];
  for (const [who, user] of [
    ['agent', agent],
    ['admin', admin],
  ] as const) {
    const list = (params: Record<string, string>) => listPath(user, who === 'admin', params);
    cases.push(
      { name: `${who}: Inbox, Working on (open)`, kind: 'list', user: who, path: list({ status: 'open', isGroup: 'false' }) },
      { name: `${who}: Inbox, Queue (pending)`, kind: 'list', user: who, path: list({ status: 'pending', isGroup: 'false' }) },
      { name: `${who}: Group, Working on (open)`, kind: 'list', user: who, path: list({ status: 'open', isGroup: 'true' }) },
      { name: `${who}: Group, Queue (pending)`, kind: 'list', user: who, path: list({ status: 'pending', isGroup: 'true' }) },
      { name: `${who}: Resolved (closed)`, kind: 'list', user: who, path: list({ status: 'closed' }) },
      { name: `${who}: Search 'maria'`, kind: 'search', user: who, path: list({ searchParam: 'maria' }) },
      // The notification bell's list, as the web app asks for it at every page load.
      {
        name: `${who}: bell, unread pending`,
        kind: 'bell',
        user: who,
        path: `/api/tickets?${new URLSearchParams({ showAll: 'false', pageNumber: '1', status: 'pending', withUnreadMessages: 'true' }).toString()}`,
      },
    );
  }
  cases.push(
    { name: `admin: chat page, messages of a ticket with ${longTicket.n} messages`, kind: 'chat', user: 'admin', path: `/api/messages/${longTicket.id}?pageNumber=1` },
    { name: `admin: contacts search 'ma'`, kind: 'contacts', user: 'admin', path: `/api/contacts?searchParam=ma&pageNumber=1` },
  );
  return cases;
}
