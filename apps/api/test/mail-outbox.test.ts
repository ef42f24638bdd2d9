import { createServer, type AddressInfo, type Server } from 'node:net';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/modules/shared/notifications/mailer';
import { createMailOutbox } from '../src/modules/shared/notifications/outbox';
import { createTestApp, startSmtpCapture, type TestApp } from './helpers';

/**
 * The mail outbox after an SMTP outage: what a dead transport held back goes out as soon as mail flows again (on the
 * first pass of a new process, or after the first successful delivery), while a message the server itself refused
 * keeps its backoff.
 */
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let dead: Server;
let deadUrl: string;
let refusing: SMTPServer;
let refusingUrl: string;
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  t = await createTestApp();
  smtp = await startSmtpCapture();
  dead = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
  deadUrl = `smtp://127.0.0.1:${(dead.address() as AddressInfo).port}`;
  // Answers, but refuses every recipient for now (450: mailbox busy, a reply-level failure).
  refusing = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error('Mailbox busy'), { responseCode: 450 }));
    },
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  refusingUrl = `smtp://127.0.0.1:${(refusing.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await smtp.close();
  await new Promise<void>((resolve) => dead.close(() => resolve()));
  await new Promise<void>((resolve) => refusing.close(() => resolve()));
  await t.close();
});

const outboxTo = (smtpUrl: string) =>
  createMailOutbox({
    db: t.db,
    clock: t.clock,
    logger,
    mailer: createMailer(
      { smtpUrl, mailFrom: 'Attestly <no-reply@attestly.test>', dataDir: '/nonexistent' },
      logger,
    ),
  });
const mail = (to: string) => ({ to, subject: `Hello ${to}`, text: 'Plain text.' });

async function rowFor(recipient: string) {
  const [row] = await t.db.read<{ attempts: number; available_at: number; last_error: string | null }>(
    'SELECT attempts, available_at, last_error FROM mail_outbox WHERE recipient = :recipient',
    { recipient },
  );
  return row;
}

describe('mail outbox after an outage', () => {
  it('sends what a dead transport held back on the first pass of a new process, not after the backoff', async () => {
    const down = outboxTo(deadUrl);
    const held = ['held-1@example.com', 'held-2@example.com'];
    for (const to of held) await down.enqueue(mail(to));
    await down.whenIdle();
    for (const to of held) {
      const row = await rowFor(to);
      expect(row?.attempts).toBe(1);
      expect(row?.last_error).toMatch(/^\[transport\] /);
      expect(Number(row?.available_at)).toBeGreaterThan(Date.now());
    }

    // A process started with a working SMTP server ("restarted with fixed settings").
    const restarted = outboxTo(smtp.url);
    expect(await restarted.deliverDue()).toBe(2);
    for (const to of held) await smtp.waitFor(to, /^Hello/);
  });

  it('releases the backlog after the first successful delivery, and keeps a refused message on its schedule', async () => {
    const running = outboxTo(smtp.url);
    await running.deliverDue(); // its first pass is behind it
    // Another replica failed these while the SMTP server was down, and one message was refused by a live server.
    const busy = outboxTo(refusingUrl);
    await busy.enqueue(mail('busy@example.com'));
    await busy.whenIdle();
    const down = outboxTo(deadUrl);
    await down.enqueue(mail('backlog@example.com'));
    await down.whenIdle();
    expect((await rowFor('backlog@example.com'))?.last_error).toMatch(/^\[transport\] /);
    const refused = await rowFor('busy@example.com');
    expect(refused?.last_error).not.toMatch(/^\[transport\]/);
    expect(refused?.last_error).toMatch(/450/);

    expect(await running.deliverDue()).toBe(0); // nothing due yet: both wait out their backoff
    await running.enqueue(mail('fresh@example.com'));
    await running.whenIdle();
    await smtp.waitFor('fresh@example.com', /^Hello/);
    await smtp.waitFor('backlog@example.com', /^Hello/);
    // The refused message was not pulled forward.
    expect(await rowFor('busy@example.com')).toEqual(refused);
    expect(smtp.messages.some((each) => each.to.includes('busy@example.com'))).toBe(false);
  });
});
