/** Which driver runs a connection of each channel (tests pass their own factory). */
import path from 'node:path';
import type { AppContext } from '../core/context.js';
import { AppError } from '../core/errors.js';
import type { ChannelAuthStore } from './connection-store.js';
import type { ChannelDriver } from './channel.js';
import { InstagramDriver } from './instagram/instagram.driver.js';
import { databasePhoneLog } from './simulator/simulator-phone.repository.js';
import { SimulatorDriver } from './simulator/simulator.driver.js';
import { createBaileysLogger } from './whatsapp/whatsapp-logger.js';
import { WhatsappDriver } from './whatsapp/whatsapp.driver.js';

export type DriverFactory = (options: { ctx: AppContext; whatsappId: number; channel: string; auth: ChannelAuthStore }) => ChannelDriver;

export const defaultDriverFactory: DriverFactory = ({ ctx, whatsappId, channel, auth }) => {
  if (channel === 'simulator') {
    if (!ctx.config.simulator) throw new AppError('ERR_SIMULATOR_DISABLED');
    // In the cluster mode the phone lives in the database, so that whichever node runs the session finds it.
    const state = ctx.leases.options.clustered ? databasePhoneLog(ctx.db, whatsappId) : path.join(ctx.config.dataDir, 'simulator', `${whatsappId}.jsonl`);
    return new SimulatorDriver({ whatsappId, auth, state });
  }
  if (channel === 'instagram') return new InstagramDriver({ whatsappId, auth, ctx });
  if (channel === 'whatsapp') {
    return new WhatsappDriver({ whatsappId, auth, logger: createBaileysLogger(ctx.log, ctx.config.logLevel, { whatsappId }) });
  }
  throw new AppError('ERR_WAPP_NOT_INITIALIZED', { message: `The ${channel} channel is not available on this server.` });
};
