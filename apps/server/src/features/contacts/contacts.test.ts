import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TContact } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
/** A plain user: contacts are everyone's work, only deleting is for admins. */
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.createUser());
});
afterAll(async () => {
  await t.close();
});

type ContactList = { contacts: TContact[]; count: number; hasMore: boolean };

function postContact(payload: Record<string, unknown>, as = token) {
  return t.request({ method: 'POST', url: '/api/contacts', token: as, payload });
}

async function getContact(id: number): Promise<TContact> {
  const res = await t.request({ method: 'GET', url: `/api/contacts/${id}`, token });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function search(term: string, pageNumber = 1): Promise<ContactList> {
  const res = await t.request({ method: 'GET', url: `/api/contacts?searchParam=${encodeURIComponent(term)}&pageNumber=${pageNumber}`, token });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function contactCount(): Promise<number> {
  return (await search('')).count;
}

/** A multipart/form-data body built by hand, as a browser sends it. */
function multipart(parts: { field: string; filename?: string; content: string }[], boundary = '----zapdesk-test-boundary') {
  const chunks = parts.map((p) => {
    const disposition = `Content-Disposition: form-data; name="${p.field}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    const type = p.filename ? '\r\nContent-Type: text/csv' : '';
    return `--${boundary}\r\n${disposition}${type}\r\n\r\n${p.content}\r\n`;
  });
  return {
    payload: Buffer.from(`${chunks.join('')}--${boundary}--\r\n`, 'utf8'),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function importCsv(content: string, as = token) {
  return t.request({ method: 'POST', url: '/api/contacts/import', token: as, ...multipart([{ field: 'file', filename: 'contacts.csv', content }]) });
}

describe('contacts CRUD', () => {
  it('creates a contact with extra info, shown by GET and in the list', async () => {
    const res = await postContact({
      name: '  Maria Souza ',
      number: '5511987650001',
      email: 'Maria@Example.COM',
      extraInfo: [
        { name: 'CPF', value: '123.456.789-00' },
        { name: 'Plan', value: 'Gold' },
      ],
    });
    expect(res.statusCode).toBe(201);
    const contact = res.json();
    expect(contact).toMatchObject({
      name: 'Maria Souza',
      number: '5511987650001',
      email: 'maria@example.com',
      profilePicUrl: '',
      isGroup: false,
      extraInfo: [
        { id: expect.any(Number), name: 'CPF', value: '123.456.789-00' },
        { id: expect.any(Number), name: 'Plan', value: 'Gold' },
      ],
    });
    expect(await getContact(contact.id)).toEqual(contact);
    expect((await search('Maria Souza')).contacts).toEqual([contact]);
  });

  it('updates a contact: fields change, extra info is replaced when sent and kept when left out', async () => {
    const created = (
      await postContact({
        name: 'Pedro Lima',
        number: '5511987650002',
        extraInfo: [
          { name: 'Old', value: '1' },
          { name: 'Older', value: '2' },
        ],
      })
    ).json();

    const res = await t.request({
      method: 'PUT',
      url: `/api/contacts/${created.id}`,
      token,
      payload: { name: 'Pedro Lima Jr', number: '5511987650022', email: 'pedro@example.com', extraInfo: [{ name: 'New', value: 'only me' }] },
    });
    expect(res.statusCode).toBe(200);
    const shown = await getContact(created.id);
    expect(shown).toMatchObject({ name: 'Pedro Lima Jr', number: '5511987650022', email: 'pedro@example.com', extraInfo: [{ name: 'New', value: 'only me' }] });
    expect(shown.extraInfo).toHaveLength(1);

    const kept = await t.request({ method: 'PUT', url: `/api/contacts/${created.id}`, token, payload: { name: 'Pedro L.', number: '5511987650022' } });
    expect(kept.statusCode).toBe(200);
    expect(await getContact(created.id)).toMatchObject({ name: 'Pedro L.', email: '', extraInfo: [{ name: 'New', value: 'only me' }] });

    const cleared = await t.request({ method: 'PUT', url: `/api/contacts/${created.id}`, token, payload: { name: 'Pedro L.', number: '5511987650022', extraInfo: [] } });
    expect(cleared.statusCode).toBe(200);
    expect((await getContact(created.id)).extraInfo).toEqual([]);
  });

  it('lets an admin delete a contact: 204, then 404 ERR_NO_CONTACT_FOUND', async () => {
    const contact = await t.createContact({ name: 'To Delete' });
    const res = await t.request({ method: 'DELETE', url: `/api/contacts/${contact.id}`, token: t.adminToken });
    expect(res.statusCode).toBe(204);
    const gone = await t.request({ method: 'GET', url: `/api/contacts/${contact.id}`, token });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
    // Its number is free again.
    expect((await postContact({ name: 'Reborn', number: contact.number })).statusCode).toBe(201);
  });

  it('refuses a plain user deleting a contact with 403 ERR_NO_PERMISSION; the contact stays', async () => {
    const contact = await t.createContact({ name: 'Protected Contact' });
    const res = await t.request({ method: 'DELETE', url: `/api/contacts/${contact.id}`, token });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect((await getContact(contact.id)).name).toBe('Protected Contact');
  });

  it('answers 404 ERR_NO_CONTACT_FOUND to a read, update or delete of an unknown id', async () => {
    for (const [method, as, payload] of [
      ['GET', token, undefined],
      ['PUT', token, { name: 'Ghost', number: '5511900000000' }],
      ['DELETE', t.adminToken, undefined],
    ] as const) {
      const res = await t.request({ method, url: '/api/contacts/999999', token: as, ...(payload ? { payload } : {}) });
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toMatchObject({ error: 'ERR_NO_CONTACT_FOUND' });
    }
    // The failed update created nothing.
    expect((await search('5511900000000')).count).toBe(0);
  });

  it('answers 400 to ids that are not ids', async () => {
    for (const id of ['abc', '0', '2147483648']) {
      const res = await t.request({ method: 'GET', url: `/api/contacts/${id}`, token });
      expect(res.statusCode, id).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { id: 'INVALID' } });
    }
  });

  it('answers 401 without a token, to every route', async () => {
    const contact = await t.createContact();
    for (const [method, url] of [
      ['GET', '/api/contacts'],
      ['POST', '/api/contacts'],
      ['GET', `/api/contacts/${contact.id}`],
      ['PUT', `/api/contacts/${contact.id}`],
      ['DELETE', `/api/contacts/${contact.id}`],
      ['POST', '/api/contact'],
      ['GET', '/api/contacts/export'],
      ['POST', '/api/contacts/import'],
    ] as const) {
      const res = await t.request({ method, url, payload: { name: 'Anon', number: '5511999999999' } });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
    }
    expect(await getContact(contact.id)).toMatchObject({ name: contact.name });
  });
});

describe('contact numbers are unique', () => {
  it('refuses a number already stored with 409 ERR_DUPLICATED_CONTACT, and creates nothing', async () => {
    await postContact({ name: 'First Owner', number: '5511987650003' });
    const before = await contactCount();
    const res = await postContact({ name: 'Second Owner', number: '5511987650003' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_DUPLICATED_CONTACT' });
    expect(await contactCount()).toBe(before);
  });

  it("refuses an update to another contact's number, and changes nothing; keeping one's own number is fine", async () => {
    const a = (await postContact({ name: 'Owner A', number: '5511987650004' })).json();
    const b = (await postContact({ name: 'Owner B', number: '5511987650005' })).json();
    const res = await t.request({ method: 'PUT', url: `/api/contacts/${b.id}`, token, payload: { name: 'Owner B2', number: a.number } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'ERR_DUPLICATED_CONTACT' });
    expect(await getContact(b.id)).toMatchObject({ name: 'Owner B', number: '5511987650005' });

    const same = await t.request({ method: 'PUT', url: `/api/contacts/${b.id}`, token, payload: { name: 'Owner B2', number: b.number } });
    expect(same.statusCode).toBe(200);
    expect(await getContact(b.id)).toMatchObject({ name: 'Owner B2' });
  });
});

describe('contact validation', () => {
  it.each([
    ['name too short', { name: 'J' }, 'name', 'TOO_SHORT'],
    ['name too long', { name: 'N'.repeat(51) }, 'name', 'TOO_LONG'],
    ['name empty', { name: ' ' }, 'name', 'REQUIRED'],
    ['name missing', { name: undefined }, 'name', 'REQUIRED'],
    ['number with letters', { number: '55119abc0001' }, 'number', 'DIGITS_ONLY'],
    ['number with a hash sign', { number: '5511#987650001' }, 'number', 'DIGITS_ONLY'],
    ['number without an area code', { number: '98765-0001' }, 'number', 'NO_AREA_CODE'],
    ['number with an unknown area code', { number: '+55 (01) 98765-0001' }, 'number', 'UNKNOWN_AREA'],
    ['number of 16 digits', { number: '1234567890123456' }, 'number', 'TOO_LONG'],
    ['number too short', { number: '1234567' }, 'number', 'TOO_SHORT'],
    ['number too long', { number: '1'.repeat(51) }, 'number', 'TOO_LONG'],
    ['number empty', { number: '' }, 'number', 'REQUIRED'],
    ['number missing', { number: undefined }, 'number', 'REQUIRED'],
    ['number not a string', { number: 5511987650001 }, 'number', 'INVALID'],
    ['email invalid', { email: 'maria@' }, 'email', 'INVALID_EMAIL'],
    ['extraInfo not a list', { extraInfo: 'none' }, 'extraInfo', 'INVALID'],
    ['extraInfo without a name', { extraInfo: [{ name: '', value: 'x' }] }, 'extraInfo.0.name', 'REQUIRED'],
    ['extraInfo value too long', { extraInfo: [{ name: 'Note', value: 'v'.repeat(1001) }] }, 'extraInfo.0.value', 'TOO_LONG'],
    ['extraInfo with too many entries', { extraInfo: Array.from({ length: 51 }, (_, i) => ({ name: `k${i}`, value: 'v' })) }, 'extraInfo', 'TOO_LONG'],
    ['extraInfo value with a NUL character', { extraInfo: [{ name: 'Note', value: 'a\u0000b' }] }, 'extraInfo.0.value', 'INVALID'],
  ])('refuses %s with 400 ERR_VALIDATION on create, update and find-or-create, and writes nothing', async (_label, override, field, code) => {
    const existing = await t.createContact({ name: 'Validation Target' });
    const before = await contactCount();
    const payload = { name: 'Valid Name', number: '5521912345678', ...override };
    for (const [method, url] of [
      ['POST', '/api/contacts'],
      ['PUT', `/api/contacts/${existing.id}`],
      ['POST', '/api/contact'],
    ] as const) {
      const res = await t.request({ method, url, token, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { [field]: code } });
    }
    expect(await contactCount()).toBe(before);
    expect(await getContact(existing.id)).toMatchObject({ name: 'Validation Target', number: existing.number });
  });

  it('accepts the boundaries: name of 2 and 50, number of 8 and 15 digits, empty or absent email', async () => {
    const short = await postContact({ name: 'Jo', number: '+12345678', email: '' });
    expect(short.statusCode).toBe(201);
    expect(short.json()).toMatchObject({ name: 'Jo', number: '12345678', email: '' });
    const long = await postContact({ name: 'L'.repeat(50), number: '+' + '9'.repeat(15) });
    expect(long.statusCode).toBe(201);
    expect(long.json()).toMatchObject({ email: '' });
  });
});

describe('contact search and pages', () => {
  it('finds by name, by part of the number and by email, ignoring case and accents', async () => {
    const joao = (await postContact({ name: 'João Conceição', number: '5521977770001', email: 'jc@mail.example' })).json();
    const joana = (await postContact({ name: 'JOANA Silva', number: '5521977770002' })).json();
    const other = (await postContact({ name: 'Carlos', number: '5521977770003' })).json();

    expect((await search('joao')).contacts.map((c) => c.id)).toEqual([joao.id]);
    expect((await search('JOÃO')).contacts.map((c) => c.id)).toEqual([joao.id]);
    expect((await search('conceicao')).contacts.map((c) => c.id)).toEqual([joao.id]);
    expect((await search('joana')).contacts.map((c) => c.id)).toEqual([joana.id]);
    expect((await search('977770003')).contacts.map((c) => c.id)).toEqual([other.id]);
    expect((await search('jc@MAIL')).contacts.map((c) => c.id)).toEqual([joao.id]);
    const byPrefix = await search('55219777700');
    expect(byPrefix).toMatchObject({ count: 3, hasMore: false });
    expect(byPrefix.contacts.map((c) => c.name)).toEqual(['Carlos', 'JOANA Silva', 'João Conceição']);
    expect(await search('nobody-by-this-name')).toEqual({ contacts: [], count: 0, hasMore: false });
  });

  it('pages 20 contacts at a time, sorted by name, with count and hasMore', async () => {
    const names = Array.from({ length: 21 }, (_, i) => `Paged Contact ${String(i).padStart(2, '0')}`);
    for (const [i, name] of [...names].reverse().entries()) {
      expect((await postContact({ name, number: `55419000000${String(i).padStart(2, '0')}` })).statusCode).toBe(201);
    }
    const page1 = await search('paged contact');
    expect(page1).toMatchObject({ count: 21, hasMore: true });
    expect(page1.contacts.map((c) => c.name)).toEqual(names.slice(0, 20));
    const page2 = await search('paged contact', 2);
    expect(page2).toMatchObject({ count: 21, hasMore: false });
    expect(page2.contacts.map((c) => c.name)).toEqual(names.slice(20));
  });

  it('refuses a bad page number with 400 ERR_VALIDATION', async () => {
    const res = await t.request({ method: 'GET', url: '/api/contacts?pageNumber=-2', token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { pageNumber: 'INVALID' } });
  });
});

describe('POST /api/contact (find or create by number)', () => {
  it('returns the stored contact for a known number, unchanged', async () => {
    const stored = (await postContact({ name: 'Known Person', number: '5561988880001', email: 'known@example.com' })).json();
    const res = await t.request({ method: 'POST', url: '/api/contact', token, payload: { name: 'Other Name', number: '5561988880001', email: 'other@example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(stored);
    expect(await getContact(stored.id)).toMatchObject({ name: 'Known Person', email: 'known@example.com' });
  });

  it('creates the contact when the number is unknown', async () => {
    const before = await contactCount();
    const res = await t.request({ method: 'POST', url: '/api/contact', token, payload: { name: 'New Person', number: '5561988880002' } });
    expect(res.statusCode).toBe(200);
    const contact = res.json();
    expect(contact).toMatchObject({ id: expect.any(Number), name: 'New Person', number: '5561988880002' });
    expect(await contactCount()).toBe(before + 1);
    expect(await getContact(contact.id)).toMatchObject({ name: 'New Person' });
  });
});

describe('POST /api/contacts/import', () => {
  it('imports a ;-separated file with Portuguese headers', async () => {
    const res = await importCsv('nome;numero;email\nAna Import;5521900000001;ana@import.example\nBeto Import;5521900000002;\n');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 2, skipped: [] });
    const found = await search('import');
    expect(found.contacts.map((c) => [c.name, c.number, c.email])).toEqual([
      ['Ana Import', '5521900000001', 'ana@import.example'],
      ['Beto Import', '5521900000002', ''],
    ]);
  });

  it('imports a ,-separated file with a BOM, CRLF lines, English or accented headers and formatted numbers', async () => {
    const res = await importCsv('\uFEFFName,Telefone,E-mail\r\n"Silva, Carla",+55 (21) 90000-0003,carla@import2.example\r\nDiego Import2,55 21 90000 0004,\r\n');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 2, skipped: [] });
    expect((await search('5521900000003')).contacts[0]).toMatchObject({ name: 'Silva, Carla', email: 'carla@import2.example' });
    expect((await search('5521900000004')).contacts[0]).toMatchObject({ name: 'Diego Import2' });
  });

  it('reports invalid lines with the line numbers of the file, empty lines included, and imports the rest', async () => {
    const csv = ['name;number;email', 'Good One;5521900000005;', '', 'X;5521900000006;', 'Bad Number;55-71-abc;', '', 'Bad Email;5521900000007;nope', 'Good Two;5521900000008;'].join('\n');
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      created: 2,
      skipped: [
        { line: 4, reason: expect.stringContaining('TOO_SHORT') },
        { line: 5, reason: expect.stringContaining('DIGITS_ONLY') },
        { line: 7, reason: expect.stringContaining('INVALID_EMAIL') },
      ],
    });
    expect((await search('Good One')).count).toBe(1);
    expect((await search('Good Two')).count).toBe(1);
    expect((await search('5521900000006')).count).toBe(0);
  });

  it('skips numbers already stored without overwriting them, and duplicates within the file', async () => {
    const stored = (await postContact({ name: 'Stored Name', number: '5521900000009', email: 'stored@example.com' })).json();
    const csv = 'name;number;email\nOverwrite Attempt;5521900000009;over@example.com\nTwin One;5521900000010;\nTwin Two;5521900000010;\n';
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      created: 1,
      skipped: [
        { line: 2, reason: 'ERR_DUPLICATED_CONTACT' },
        { line: 4, reason: 'DUPLICATED_IN_FILE' },
      ],
    });
    expect(await getContact(stored.id)).toMatchObject({ name: 'Stored Name', email: 'stored@example.com' });
    expect((await search('5521900000010')).contacts.map((c) => c.name)).toEqual(['Twin One']);
  });

  it('imports a file with a header only as nothing', async () => {
    const res = await importCsv('name;number;email\n');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 0, skipped: [] });
  });

  it.each([
    ['no header row', 'Ana;5521900000011;ana@x.example\nBia;5521900000012;\n'],
    ['a header without a number column', 'name;email\nAna;ana@x.example\n'],
    ['an empty file', ''],
    ['an unterminated quote', 'name;number\n"Ana;5521900000013\n'],
  ])('refuses %s with 400 ERR_INVALID_CSV and writes nothing', async (_label, csv) => {
    const before = await contactCount();
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_CSV', message: expect.any(String) });
    expect(await contactCount()).toBe(before);
  });

  it('refuses a file of more than 50000 contacts with 400 ERR_INVALID_CSV, and writes nothing', async () => {
    const before = await contactCount();
    const rows = Array.from({ length: 50001 }, (_, i) => `Bulk ${i};55${String(i).padStart(11, '0')}`);
    const res = await importCsv(`name;number\n${rows.join('\n')}\n`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_CSV', message: expect.stringContaining('50000') });
    expect(await contactCount()).toBe(before);
  });

  it('refuses a request that is not multipart with 400 ERR_INVALID_CSV', async () => {
    const res = await t.request({ method: 'POST', url: '/api/contacts/import', token, payload: { file: 'name;number\nAna;5521900000014' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_CSV' });
  });

  it('refuses a multipart body without a file with 400 ERR_INVALID_CSV', async () => {
    const res = await t.request({ method: 'POST', url: '/api/contacts/import', token, ...multipart([{ field: 'note', content: 'no file here' }]) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_CSV' });
  });

  it('refuses a malformed multipart body with 400 ERR_INVALID_CSV, not 500', async () => {
    const noBoundary = await t.request({ method: 'POST', url: '/api/contacts/import', token, headers: { 'content-type': 'multipart/form-data' }, payload: 'name;number' });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json()).toMatchObject({ error: 'ERR_INVALID_CSV' });

    const whole = multipart([{ field: 'file', filename: 'c.csv', content: 'name;number\nCut Off;5521900000015\n' }]);
    const truncated = await t.request({ method: 'POST', url: '/api/contacts/import', token, headers: whole.headers, payload: whole.payload.subarray(0, whole.payload.length - 30) });
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json()).toMatchObject({ error: 'ERR_INVALID_CSV' });
    expect((await search('5521900000015')).count).toBe(0);
  });

  it('skips lines holding a NUL character instead of failing the file', async () => {
    const res = await importCsv('name;number\nNul\u0000Name;5521900000016\nClean Name;5521900000017\n');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 1, skipped: [{ line: 2, reason: expect.stringContaining('INVALID') }] });
  });
});

describe('GET /api/contacts/export', () => {
  it('returns every contact as a ;-separated CSV with a header row, importable again', async () => {
    const contact = (await postContact({ name: 'Export; Me', number: '5521900000091', email: 'export@example.com' })).json();
    const res = await t.request({ method: 'GET', url: '/api/contacts/export', token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="zdg.csv"');
    // A byte-order mark first, so spreadsheet programs read the accents as UTF-8.
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('"name";"number";"email";"labels"');
    expect(lines).toContain('"Export; Me";"5521900000091";"export@example.com";""');
    expect(lines).toHaveLength((await contactCount()) + 1);

    // The export reads back in: every line is an existing number, so nothing changes.
    const again = await importCsv(res.body);
    expect(again.statusCode).toBe(200);
    expect(again.json().created).toBe(0);
    expect(again.json().skipped.every((s: { reason: string }) => s.reason === 'ERR_DUPLICATED_CONTACT')).toBe(true);
    expect(await getContact(contact.id)).toMatchObject({ name: 'Export; Me' });
  });
});

describe('CSV exports against formula injection', () => {
  it('defuses cells a spreadsheet would run (=, +, -, @ first) and reads them back as they were', async () => {
    // (Names are trimmed when saved, so a leading tab or CR is covered by the shared csv tests.)
    const names = ['=HYPERLINK("http://evil.example","Clique")', '+SUM(1,2)', '-1+2', '@cmd'];
    const created: { id: number; name: string }[] = [];
    for (const [i, name] of names.entries()) created.push({ id: (await postContact({ name, number: `552199900000${i}`, email: '' })).json<{ id: number }>().id, name });
    const res = await t.request({ method: 'GET', url: '/api/contacts/export', token });
    for (const [i, name] of names.entries()) expect(res.body).toContain(`"'${name.replace(/"/g, '""')}";"552199900000${i}"`);
    expect(res.body).not.toMatch(/(^|\r\n|;)"?=HYPERLINK/);

    // The export imports back into an empty database with the names as they were typed.
    const fresh = await createTestApp();
    try {
      const imported = await fresh.request({ method: 'POST', url: '/api/contacts/import', token: fresh.adminToken, ...multipart([{ field: 'file', filename: 'zdg.csv', content: res.body }]) });
      expect(imported.statusCode).toBe(200);
      const all = (await fresh.request({ method: 'GET', url: '/api/contacts?pageNumber=1', token: fresh.adminToken })).json<{ contacts: { name: string; number: string }[] }>().contacts;
      for (const [i, name] of names.entries()) expect(all.find((c) => c.number === `552199900000${i}`)?.name).toBe(name);
    } finally {
      await fresh.close();
    }
  });
});

describe('contacts on an empty database', () => {
  it('lists nothing and exports the header row alone', async () => {
    const fresh = await createTestApp();
    try {
      const list = await fresh.request({ method: 'GET', url: '/api/contacts', token: fresh.adminToken });
      expect(list.json()).toEqual({ contacts: [], count: 0, hasMore: false });
      const csv = await fresh.request({ method: 'GET', url: '/api/contacts/export', token: fresh.adminToken });
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toBe('\uFEFF"name";"number";"email";"labels"\r\n');
    } finally {
      await fresh.close();
    }
  });
});
