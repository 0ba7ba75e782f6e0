/** Settings in the browser tests: a text setting typed in and left (which saves it), checked through the API. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Api } from './simulator';

export async function fillTextSetting(page: Page, api: Api, key: string, value: string): Promise<void> {
  const field = page.getByTestId(`setting-${key}`);
  await field.fill(value);
  await field.blur();
  await expect.poll(async () => ((await (await api('/settings')).json()) as { key: string; value: string }[]).find((s) => s.key === key)?.value, { timeout: 20_000 }).toBe(value);
}
