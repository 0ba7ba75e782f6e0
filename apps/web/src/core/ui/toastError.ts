/**
 * The one error handler: a translated text for the error code when one exists, a translated
 * 'cannot reach the server' for a request that never got an answer, else the raw message, else
 * 'An error occurred!'.
 */
import { toast } from 'react-toastify';
import { i18n } from '../../i18n/i18n';
import { ApiError } from '../api/ApiError';

export function errorText(error: unknown): string {
  if (error instanceof ApiError && error.code) {
    const texts = i18n.t('backendErrors', { returnObjects: true });
    const text = texts[error.code];
    if (text) return text;
  }
  // fetch's own failure (no network, server down): 'Failed to fetch' / 'Load failed', in English, says nothing useful.
  if (error instanceof TypeError && /fetch|load failed|network/i.test(error.message)) return i18n.t('networkErrors.unreachable');
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return i18n.t('errors.generic');
}

export function toastError(error: unknown): void {
  toast.error(errorText(error), { toastId: errorText(error) });
}
