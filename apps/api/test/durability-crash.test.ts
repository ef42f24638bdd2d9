import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database';
import { createTestDatabase, startSmtpCapture } from './helpers';
import { exited, hasEnded, startServerProcess, stopProcess, type ServerProcess } from './server-process';

/**
 * Issue 15 item 9: an acknowledged action keeps its audit entry and its mail through a crash. A real server process
 * takes a burst of sign-ups while its SMTP server is down, and is killed with SIGKILL as soon as most of them have
 * been answered. Every answered sign-up must then have its `user.registered` audit row and its verification mail
 * queued; a fresh process with a working SMTP server delivers every one of those mails.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let deadSmtp: Server;
let deadSmtpUrl: string;
let db: Database | null = null;
const processes: ServerProcess[] = [];
const masterKey = randomBytes(32).toString('hex');
/** Sign-ups the first test saw acknowledged (accounts the second test asks to reset). */
const acknowledged: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpCapture();
  // "SMTP down": a port that accepts and drops every connection at once.
  deadSmtp = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => deadSmtp.listen(0, '127.0.0.1', resolve));
  deadSmtpUrl = `smtp://127.0.0.1:${(deadSmtp.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  for (const each of processes) if (!hasEnded(each.child)) each.child.kill('SIGKILL');
  await db?.close();
  await smtp?.close();
  await new Promise<void>((resolve) => deadSmtp?.close(() => resolve()));
  await database?.drop();
});

function start(smtpUrl: string) {
  return startServerProcess({
    ATTESTLY_DATA_DIR: database.dataDir,
    DATABASE_URL: database.url ?? '',
    ATTESTLY_PUBLIC_URL: 'http://attestly.test',
    ATTESTLY_MASTER_KEY: masterKey,
    ATTESTLY_PASSWORD_COST: '12',
    ATTESTLY_VISION: 'false',
    ATTESTLY_TRUST_PROXY: 'true',
    ATTESTLY_SMTP_URL: smtpUrl,
    ATTESTLY_WEB_DIR: path.join(database.dataDir, 'no-web'),
  }).then((started) => {
    processes.push(started);
    return started;
  });
}

describe('a crash right after acknowledged sign-ups', () => {
  it('loses neither their audit entries nor their mail', async () => {
    const first = await start(deadSmtpUrl);
    const base = `http://127.0.0.1:${first.port}`;
    const emails = Array.from({ length: 24 }, () => `crash-${randomBytes(5).toString('hex')}@example.com`);
    let killed = false;
    await new Promise<void>((resolve) => {
      let settled = 0;
      for (const [index, email] of emails.entries()) {
        fetch(`${base}/api/v1/users/register`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.9.${index}.1` },
          body: JSON.stringify({ full_name: 'Crash Test', email, password: 'correct horse battery' }),
        })
          .then((response) => {
            if (response.status === 201 && !killed) acknowledged.push(email);
          })
          .catch(() => undefined)
          .finally(() => {
            settled += 1;
            // Kill as soon as most have been answered, with the rest still in flight.
            if (!killed && acknowledged.length >= 16) {
              killed = true;
              first.child.kill('SIGKILL');
            }
            if (settled === emails.length) resolve();
          });
      }
    });
    if (!killed) first.child.kill('SIGKILL');
    await exited(first.child);
    expect(acknowledged.length).toBeGreaterThanOrEqual(16);

    db = await createDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    for (const email of acknowledged) {
      const [user] = await db.read<{ id: string }>('SELECT id FROM users WHERE email = :email', { email });
      expect(user, email).toBeDefined();
      const audited = await db.read<{ n: number }>(
        `SELECT COUNT(*) AS n FROM audit_logs WHERE user_id = :id AND event_type = 'user.registered'`,
        { id: user?.id },
      );
      expect(Number(audited[0]?.n), email).toBe(1);
      const queued = await db.read<{ n: number }>(
        'SELECT COUNT(*) AS n FROM mail_outbox WHERE recipient = :email AND sent_at IS NULL',
        { email },
      );
      expect(Number(queued[0]?.n), email).toBe(1);
    }
    // Every "verification sent" entry has its mail queued.
    const claimed = await db.read<{ n: number }>(
      `SELECT COUNT(*) AS n FROM audit_logs a JOIN users u ON CAST(u.id AS VARCHAR(64)) = a.user_id
        WHERE a.event_type = 'user.email_verification_sent'
          AND NOT EXISTS (SELECT 1 FROM mail_outbox m WHERE m.recipient = u.email)`,
      {},
    );
    expect(Number(claimed[0]?.n)).toBe(0);
    await db.close();
    db = null;

    // A fresh process with a working SMTP server delivers what the crashed one could not.
    await start(smtp.url);
    // (A row claimed by the killed process at the moment of the kill waits for its claim to lapse, MAIL_CLAIM_MS.)
    await Promise.all(
      acknowledged.map((email) => smtp.waitFor(email, /Confirm your e-mail address/, 200_000)),
    );
    // Stop the delivering process before the next test starts its own.
    for (const each of processes) await stopProcess(each.child, 'SIGKILL');
  }, 300_000);

  it('loses no password-reset mail acknowledged with 202 before the crash', async () => {
    const crashing = await start(deadSmtpUrl);
    const base = `http://127.0.0.1:${crashing.port}`;
    const known = acknowledged.slice(0, 5);
    const unknown = Array.from({ length: 5 }, () => `nobody-${randomBytes(5).toString('hex')}@example.com`);
    const answers = await Promise.all(
      [...known, ...unknown].map((email, index) =>
        fetch(`${base}/api/v1/users/forgot-password`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.8.${index}.1` },
          body: JSON.stringify({ email }),
        }).then((response) => response.status),
      ),
    );
    crashing.child.kill('SIGKILL');
    await exited(crashing.child);
    expect(answers.every((status) => status === 202)).toBe(true);

    await start(smtp.url);
    await Promise.all(known.map((email) => smtp.waitFor(email, /Reset your Attestly password/, 200_000)));
    // Addresses without an account get nothing.
    expect(smtp.messages.filter((mail) => unknown.some((email) => mail.to.includes(email)))).toEqual([]);
  }, 300_000);
});
