/**
 * The layers are kept by the linter: this runs ESLint with the repository's configuration on
 * small sources placed in each layer and expects the boundary errors (and none where allowed).
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

async function boundaryErrors(file: string, source: string): Promise<string[]> {
  // Only the import rules matter here: the sources are not part of a TypeScript project.
  const eslint = new ESLint({ cwd: ROOT, overrideConfig: [tseslint.configs.disableTypeChecked, { languageOptions: { parserOptions: { project: false, projectService: false } } }] });
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it('refuses core importing a feature, and channels importing a feature', async () => {
    const fromCore = await boundaryErrors('apps/server/src/core/fixture.ts', "import { listTickets } from '../features/tickets/tickets.repository.js';\nexport const x = listTickets;\n");
    expect(fromCore).toEqual([expect.stringContaining('the layers point one way')]);
    const fromChannels = await boundaryErrors(
      'apps/server/src/channels/fixture.ts',
      "import { findWhatsappById } from '../features/whatsapps/whatsapps.repository.js';\nexport const x = findWhatsappById;\n",
    );
    expect(fromChannels).toEqual([expect.stringContaining('the layers point one way')]);
  });

  it("refuses a feature importing another feature's internals, or the app above it", async () => {
    const internals = await boundaryErrors('apps/server/src/features/tickets/fixture.ts', "import { storeMedia } from '../messages/inbound/media.js';\nexport const x = storeMedia;\n");
    expect(internals).toEqual([expect.stringContaining("another feature's internals")]);
    const upward = await boundaryErrors('apps/server/src/features/tickets/fixture.ts', "import { buildApp } from '../../app.js';\nexport const x = buildApp;\n");
    expect(upward).toEqual([expect.stringContaining('the layers point one way')]);
  });

  it('keeps Baileys inside the WhatsApp driver', async () => {
    const source = "import { WAMessageStatus } from '@whiskeysockets/baileys';\nexport const x = WAMessageStatus;\n";
    expect(await boundaryErrors('apps/server/src/features/messages/fixture.ts', source)).toEqual([expect.stringContaining('Baileys')]);
    expect(await boundaryErrors('apps/server/src/channels/whatsapp/fixture.ts', source)).toEqual([]);
  });

  it('allows what the layers allow', async () => {
    expect(
      await boundaryErrors(
        'apps/server/src/features/tickets/fixture.ts',
        "import { AppError } from '../../core/errors.js';\nimport { findContactById } from '../contacts/contacts.repository.js';\nimport type { ChannelDriver } from '../../channels/channel.js';\nexport const x = [AppError, findContactById] as const;\nexport type Y = ChannelDriver;\n",
      ),
    ).toEqual([]);
    expect(await boundaryErrors('apps/server/src/realtime/fixture.ts', "import { listTickets } from '../features/tickets/tickets.repository.js';\nexport const x = listTickets;\n")).toEqual([]);
  });
});
