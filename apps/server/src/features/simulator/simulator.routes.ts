/** Drives the simulated phones (admin only, present only with SIMULATOR=on). */
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_ID, mediaTypeOfMime } from '@zapdesk/shared/domain';
import { ZSimulatorGroupCreateSchema, ZSimulatorGroupSchema, ZSimulatorGroupsSchema } from '@zapdesk/shared/groups';
import {
  ZSimulatorCallItemSchema,
  ZSimulatorCallSchema,
  ZSimulatorContactSchema,
  ZSimulatorEditSchema,
  ZSimulatorHistorySchema,
  ZSimulatorInboundSchema,
  ZSimulatorOutboxItemSchema,
} from '@zapdesk/shared/simulator';
import { ZSimulatorReactionSchema } from '@zapdesk/shared/reactions';
import { placeDescription, type InboundMessage } from '../../channels/channel.js';
import type { SessionManager } from '../../channels/session-manager.js';
import { RemoteDriver } from '../../channels/remote-driver.js';
import { SimulatorDriver } from '../../channels/simulator/simulator.driver.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { requireAdmin } from '../../core/http/auth-hooks.js';
import { getWhatsapp } from '../whatsapps/whatsapps.service.js';

/** A shared place as WhatsApp's locationMessage carries it: name and address become the stored description, as the real channel does. */
function simulatedPlace(place: {
  latitude: number;
  longitude: number;
  name?: string | undefined;
  address?: string | undefined;
  description?: string | undefined;
}): NonNullable<InboundMessage['location']> {
  const description = place.description ?? placeDescription(place.name, place.address);
  return { latitude: place.latitude, longitude: place.longitude, ...(description ? { description } : {}) };
}

const ZParams = z.object({ connectionId: z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID') });

/** The simulated phone's controls, each answered when done (here, or on the node that runs the session). */
type SimulatorControl = {
  [K in 'scan' | 'deliver' | 'seedHistory' | 'edit' | 'react' | 'updateContact' | 'outbox' | 'drop' | 'addGroup' | 'groups' | 'ownNumber' | 'placeCall' | 'calls']: SimulatorDriver[K] extends (
    ...args: infer A
  ) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : () => Promise<SimulatorDriver[K]>;
};

function localControl(driver: SimulatorDriver): SimulatorControl {
  return {
    scan: () => driver.scan(),
    deliver: (message) => driver.deliver(message),
    seedHistory: async (messages) => driver.seedHistory(messages),
    edit: async (id, body) => driver.edit(id, body),
    react: async (input) => driver.react(input),
    updateContact: async (update) => driver.updateContact(update),
    outbox: async () => driver.outbox(),
    drop: async () => driver.drop(),
    addGroup: async (input) => driver.addGroup(input),
    groups: async () => driver.groups(),
    ownNumber: async () => driver.ownNumber,
    placeCall: (input) => driver.placeCall(input),
    calls: async () => driver.calls(),
  };
}

function remoteControl(driver: RemoteDriver): SimulatorControl {
  return {
    scan: () => driver.call('scan'),
    deliver: (message) => driver.call('deliver', message),
    seedHistory: (messages) => driver.call('seedHistory', messages),
    edit: (id, body) => driver.call('edit', id, body),
    react: (input) => driver.call('react', input),
    updateContact: (update) => driver.call('updateContact', update),
    outbox: () => driver.call('outbox'),
    drop: () => driver.call('drop'),
    addGroup: (input) => driver.call('addGroup', input),
    groups: () => driver.call('groups'),
    ownNumber: () => driver.call('ownNumber'),
    placeCall: (input) => driver.call('placeCall', input),
    calls: () => driver.call('calls'),
  };
}

export const simulatorRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sessions: SessionManager }> = async (app, { ctx, sessions }) => {
  const tags = ['simulator'];
  const onRequest = requireAdmin(ctx);

  /** The simulated phone of a connection, wherever its session runs (another node in the cluster mode). */
  async function simulator(connectionId: number): Promise<SimulatorControl> {
    // A simulated phone this node runs is a simulator connection's: no need to read it again.
    const local = sessions.driver(connectionId);
    if (local instanceof SimulatorDriver) return localControl(local);
    const whatsapp = await getWhatsapp(ctx, connectionId);
    if (whatsapp.channel !== 'simulator') throw new AppError('ERR_NOT_A_SIMULATOR');
    const driver = await sessions.use(connectionId);
    if (driver instanceof RemoteDriver) return remoteControl(driver);
    if (!(driver instanceof SimulatorDriver)) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return localControl(driver);
  }

  app.post('/simulator/:connectionId/scan', { schema: { tags, params: ZParams, response: { 200: z.object({ status: z.string() }) } }, onRequest }, async (req) => {
    await (await simulator(req.params.connectionId)).scan();
    await sessions.settled(req.params.connectionId);
    return { status: 'CONNECTED' };
  });

  app.post('/simulator/:connectionId/inbound', { schema: { tags, params: ZParams, body: ZSimulatorInboundSchema, response: { 200: z.object({ id: z.string() }) } }, onRequest }, async (req) => {
    const driver = await simulator(req.params.connectionId);
    const input = req.body;
    const providerId = input.id ?? `SIMIN${randomBytes(8).toString('hex').toUpperCase()}`;
    const media = input.media;
    const data = media ? Buffer.from(media.base64, 'base64') : undefined;
    if (media && (!data || data.length === 0)) throw new AppError('ERR_VALIDATION', { message: 'media.base64 holds no data.', fields: { 'media.base64': 'INVALID' } });
    const message: InboundMessage = {
      providerId,
      chat: input.group ? { kind: 'group', groupId: input.group.id } : { kind: 'person', number: input.from },
      sender: { number: input.from, ...(input.name ? { name: input.name } : {}) },
      fromMe: input.fromMe,
      body: input.body,
      ...(media && data ? { media: { mediaType: mediaTypeOfMime(media.mimetype), mimetype: media.mimetype, filename: media.filename, load: async () => data } } : {}),
      ...(input.location ? { location: simulatedPlace(input.location) } : {}),
      ...(input.vcard ? { vcard: input.vcard } : {}),
      ...(input.quotedId ? { quotedProviderId: input.quotedId } : {}),
      ...(input.group ? { group: { subject: input.group.subject } } : {}),
      timestamp: new Date(),
    };
    // Answered once the message is stored, like a phone that is told 'delivered' only then.
    await driver.deliver(message);
    return { id: providerId };
  });

  // Old messages the phone already holds for a number (for history import): kept, not delivered.
  app.post(
    '/simulator/:connectionId/history',
    { schema: { tags, params: ZParams, body: ZSimulatorHistorySchema, response: { 200: z.object({ ids: z.array(z.string()) }) } }, onRequest },
    async (req) => {
      const driver = await simulator(req.params.connectionId);
      const { from, name, messages } = req.body;
      const start = Date.now() - (messages.length + 60) * 60_000;
      const seeded: InboundMessage[] = messages.map((m, i) => ({
        providerId: m.id ?? `SIMOLD${randomBytes(8).toString('hex').toUpperCase()}`,
        chat: { kind: 'person', number: from },
        ...(m.fromMe ? {} : { sender: { number: from, ...(name ? { name } : {}) } }),
        fromMe: m.fromMe,
        body: m.body,
        // Without a time: one minute apart, in the order given, the last an hour ago.
        timestamp: m.timestamp ? new Date(m.timestamp) : new Date(start + i * 60_000),
      }));
      await driver.seedHistory(seeded);
      return { ids: seeded.map((m) => m.providerId) };
    },
  );

  app.post('/simulator/:connectionId/edit', { schema: { tags, params: ZParams, body: ZSimulatorEditSchema, response: { 200: z.object({ id: z.string() }) } }, onRequest }, async (req) => {
    await (await simulator(req.params.connectionId)).edit(req.body.id, req.body.body);
    return { id: req.body.id };
  });

  // A person reacts to a message (an empty emoji takes the reaction away); the product applies it as it arrives.
  app.post('/simulator/:connectionId/reaction', { schema: { tags, params: ZParams, body: ZSimulatorReactionSchema, response: { 200: z.object({ id: z.string() }) } }, onRequest }, async (req) => {
    const { id, from, name, emoji, fromMe } = req.body;
    await (await simulator(req.params.connectionId)).react({ providerId: id, from, name, emoji, fromMe });
    return { id };
  });

  app.post('/simulator/:connectionId/contact', { schema: { tags, params: ZParams, body: ZSimulatorContactSchema, response: { 200: z.object({ number: z.string() }) } }, onRequest }, async (req) => {
    const { from, name, pictureUrl } = req.body;
    await (await simulator(req.params.connectionId)).updateContact({ number: from, ...(name ? { name } : {}), ...(pictureUrl !== undefined ? { pictureUrl } : {}) });
    return { number: from };
  });

  // A contact calls the phone; answered once the product has handled the call, with what became of it.
  app.post('/simulator/:connectionId/calls', { schema: { tags, params: ZParams, body: ZSimulatorCallSchema, response: { 200: ZSimulatorCallItemSchema } }, onRequest }, async (req) => {
    const { id, from, video, groupId } = req.body;
    return (await simulator(req.params.connectionId)).placeCall({ id, from, video, groupId });
  });

  app.get('/simulator/:connectionId/calls', { schema: { tags, params: ZParams, response: { 200: z.array(ZSimulatorCallItemSchema) } }, onRequest }, async (req) =>
    (await simulator(req.params.connectionId)).calls(),
  );

  app.get('/simulator/:connectionId/outbox', { schema: { tags, params: ZParams, response: { 200: z.array(ZSimulatorOutboxItemSchema) } }, onRequest }, async (req) =>
    (await simulator(req.params.connectionId)).outbox(),
  );

  app.post('/simulator/:connectionId/disconnect', { schema: { tags, params: ZParams, response: { 200: z.object({ status: z.string() }) } }, onRequest }, async (req) => {
    await (await simulator(req.params.connectionId)).drop();
    await sessions.settled(req.params.connectionId);
    return { status: 'DISCONNECTED' };
  });

  // Groups the phone belongs to: set up by a test or the demo, and read back to see what the product changed.
  app.post('/simulator/:connectionId/groups', { schema: { tags, params: ZParams, body: ZSimulatorGroupCreateSchema, response: { 201: ZSimulatorGroupSchema } }, onRequest }, async (req, reply) =>
    reply.code(201).send(await (await simulator(req.params.connectionId)).addGroup(req.body)),
  );

  app.get('/simulator/:connectionId/groups', { schema: { tags, params: ZParams, response: { 200: ZSimulatorGroupsSchema } }, onRequest }, async (req) => {
    const driver = await simulator(req.params.connectionId);
    return { ownNumber: await driver.ownNumber(), groups: await driver.groups() };
  });
};
