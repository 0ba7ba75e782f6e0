/**
 * The Instagram Graph API (Instagram API with Instagram Login), over HTTP: the account behind a
 * token, a person's profile, the Send API, and the account's conversations. The token travels
 * in the Authorization header only, never in an address, and no error carries it.
 */
import { AppError } from '../../core/errors.js';

const REQUEST_TIMEOUT_MS = 20_000;

export type GraphProfile = { id: string; name?: string; username?: string; profile_pic?: string };
export type GraphSendResult = { recipient_id?: string; message_id?: string };
type GraphErrorBody = { error?: { message?: string; code?: number; error_subcode?: number; type?: string } };

/**
 * What a Graph error means: 190 the token; 10 with 2018278 (or 2534022) the 24-hour window;
 * 4, 17, 32, 613 rate limits and 5xx pass (tried again); 100/551 with a user subcode: no such
 * person for this account; anything else this message is refused.
 */
export function graphError(status: number, body: GraphErrorBody | undefined): AppError {
  const error = body?.error;
  const detail = error?.message ? error.message.slice(0, 300) : `HTTP ${status}`;
  const code = error?.code;
  const subcode = error?.error_subcode;
  if (code === 190 || status === 401) return new AppError('ERR_IG_TOKEN', { message: detail });
  if ((code === 10 && (subcode === 2018278 || subcode === 2534022)) || /outside of allowed window/i.test(detail)) return new AppError('ERR_IG_WINDOW_CLOSED', { message: detail });
  if (code === 4 || code === 17 || code === 32 || code === 613 || status === 429 || status >= 500) return new AppError('ERR_SENDING_WAPP_MSG', { message: detail });
  if (code === 551 || subcode === 2018001 || subcode === 2534014) return new AppError('ERR_IG_UNKNOWN_USER', { message: detail });
  return new AppError('ERR_IG_REFUSED', { message: detail });
}

export class GraphClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async #call<T>(method: 'GET' | 'POST', path: string, options: { query?: Record<string, string>; body?: unknown } = {}): Promise<T> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(options.body ? { 'content-type': 'application/json' } : {}) },
        ...(options.body ? { body: JSON.stringify(options.body) } : {}),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch {
      throw new AppError('ERR_SENDING_WAPP_MSG', { message: 'The Instagram Graph API could not be reached.' });
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = undefined;
    }
    if (!response.ok) throw graphError(response.status, parsed as GraphErrorBody | undefined);
    return parsed as T;
  }

  /** The professional account behind the token. */
  me(): Promise<{ user_id?: string; id?: string; username?: string }> {
    return this.#call('GET', '/me', { query: { fields: 'user_id,username' } });
  }

  /** A person who wrote to the account, by IGSID. */
  profile(igsid: string): Promise<GraphProfile> {
    return this.#call('GET', `/${encodeURIComponent(igsid)}`, { query: { fields: 'name,username,profile_pic' } });
  }

  send(accountId: string, body: Record<string, unknown>): Promise<GraphSendResult> {
    return this.#call('POST', `/${encodeURIComponent(accountId)}/messages`, { body });
  }

  /** Everyone the account has a conversation with (username and IGSID), a few pages at most. */
  async participants(accountId: string, pages = 10): Promise<{ id: string; username: string }[]> {
    const found = new Map<string, string>();
    let after: string | undefined;
    for (let page = 0; page < pages; page += 1) {
      const answer = await this.#call<{ data?: { participants?: { data?: { id?: string; username?: string }[] } }[]; paging?: { cursors?: { after?: string }; next?: string } }>(
        'GET',
        `/${encodeURIComponent(accountId)}/conversations`,
        { query: { platform: 'instagram', fields: 'participants', limit: '100', ...(after ? { after } : {}) } },
      );
      for (const conversation of answer.data ?? []) {
        for (const person of conversation.participants?.data ?? []) {
          if (person.id && person.username && person.id !== accountId) found.set(person.username.toLowerCase(), person.id);
        }
      }
      after = answer.paging?.next ? answer.paging.cursors?.after : undefined;
      if (!after) break;
    }
    return [...found].map(([username, id]) => ({ id, username }));
  }
}
