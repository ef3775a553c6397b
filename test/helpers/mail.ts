import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { Knex } from 'knex';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { createLogger, type Logger } from '../../server/platform/logger.ts';
import type { Mailer, OutgoingMail } from '../../server/platform/integrations/mail.ts';
import { deliverEmail } from '../../server/modules/email/commands/deliverEmail.ts';
import type { Enqueue } from '../../server/modules/email/commands/recordEmail.ts';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
}

export interface FakeSmtp {
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on a loopback port (smtp-server): no TLS, no auth. It refuses recipients whose local part is
 * `refused` (450, temporary) or `rejected` (550, permanent), and keeps every message it accepts, parsed.
 * A message is in `received` before the client's send resolves (the DATA reply is given after parsing).
 */
export async function startFakeSmtp(): Promise<FakeSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const local = address.address.split('@')[0];
      if (local === 'refused') return callback(Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 450 }));
      if (local === 'rejected') return callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw, { keepCidLinks: true }).then(
          (parsed) => {
            received.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              raw,
              parsed,
            });
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface EnqueueStub {
  enqueue: Enqueue;
  /** Every call, committed or not. */
  calls: Array<{ queue: string; data: object; trx?: Knex.Transaction }>;
  /** The calls whose transaction committed (what a transactional job engine would keep). */
  committed(): Promise<Array<{ queue: string; data: object }>>;
}

/** Records enqueue calls; a call made inside a transaction survives only if that transaction commits. */
export function enqueueStub(): EnqueueStub {
  const calls: EnqueueStub['calls'] = [];
  const settled: Array<Promise<{ queue: string; data: object } | null>> = [];
  return {
    calls,
    enqueue: async (queue, data, options) => {
      calls.push({ queue, data, trx: options?.trx });
      const trx = options?.trx;
      settled.push(
        trx ? trx.executionPromise.then(() => ({ queue, data }), () => null) : Promise.resolve({ queue, data }),
      );
      return `job-${calls.length}`;
    },
    committed: async () => (await Promise.all(settled)).filter((c): c is { queue: string; data: object } => c !== null),
  };
}

/** A logger whose lines are kept, parsed. */
export function memoryLogger(): { logger: Logger; lines: Array<Record<string, any>> } {
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger('debug', sink);
  return { logger, lines };
}

/**
 * A transport that keeps what it is handed (`sent`), as the guest would receive it. `failures` first sends throw
 * a temporary error (the engine would retry).
 */
export function capturingMailer(options: { failures?: number } = {}): { mailer: Mailer; sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  let failures = options.failures ?? 0;
  const mailer: Mailer = {
    kind: 'smtp',
    async send(mail) {
      if (failures-- > 0) throw Object.assign(new Error('Mailbox temporarily unavailable'), { code: 'EENVELOPE', responseCode: 450 });
      sent.push(mail);
      return { messageId: mail.messageId, response: '250 2.0.0 OK' };
    },
    close() {},
  };
  return { mailer, sent };
}

/**
 * The ledger message `messageId` delivered now (the `email.send` job's step) to a capturing transport: the mail as
 * the guest receives it, with the guest's links working (the ledger keeps them redacted, issue 32 §3).
 */
export async function deliveredNow(knex: Knex, messageId: string): Promise<OutgoingMail> {
  const { mailer, sent } = capturingMailer();
  const outcome = await deliverEmail({ knex, mailer, logger: createLogger('silent') }, messageId);
  if (outcome !== 'sent' || sent.length !== 1) throw new Error(`message ${messageId} was not delivered (${outcome})`);
  return sent[0];
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
