import { isErrorCode, type ErrorCode } from '@zapdesk/shared/errors';

/** A failed API call: the HTTP status and, when the body had one, its error code and field codes. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly fields: Record<string, string>;
  /** A reply stored but not sent: it is in the chat as failed, with Retry. */
  readonly messageId: number | undefined;

  constructor(options: { status: number; code?: ErrorCode | undefined; message: string; fields?: Record<string, string> | undefined; messageId?: number | undefined }) {
    super(options.message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.fields = options.fields ?? {};
    this.messageId = options.messageId;
  }

  static async fromResponse(response: Response): Promise<ApiError> {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    const record = typeof body === 'object' && body !== null ? body : {};
    const code = 'error' in record && isErrorCode(record.error) ? record.error : undefined;
    const message = 'message' in record && typeof record.message === 'string' ? record.message : '';
    const fields: Record<string, string> = {};
    if ('fields' in record && typeof record.fields === 'object' && record.fields !== null) {
      for (const [path, value] of Object.entries(record.fields)) {
        if (typeof value === 'string') fields[path] = value;
      }
    }
    const messageId = 'messageId' in record && typeof record.messageId === 'number' ? record.messageId : undefined;
    return new ApiError({ status: response.status, code, message, fields, messageId });
  }
}
