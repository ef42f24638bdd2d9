import { QueryTypes, type Transaction } from 'sequelize';
import type { Deps } from '../../../core/deps';
import type { MailMessage } from './mailer';

/** A message as queued: what the mailer sends, with an optional HTML part when the mailer takes one. */
export type OutboxMessage = MailMessage & { html?: string };

/** How long a claimed message is held by the process sending it before another may try (a crashed sender). */
export const MAIL_CLAIM_MS = 60_000;
/** Retry delays after failed attempts; the last one repeats until MAIL_MAX_ATTEMPTS. */
export const MAIL_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000];
export const MAIL_MAX_ATTEMPTS = 10;
/** Sent messages are kept (without their body) this long, for the operator. */
export const MAIL_SENT_RETENTION_MS = 7 * 24 * 3600_000;
/**
 * `last_error` of a row that failed before any SMTP reply (server down, refused, TLS, DNS): the transport, not the
 * message, was at fault, so the row goes out as soon as the transport works again — after the first successful
 * delivery, or when a process starts (a restart is how an operator applies fixed SMTP settings) — instead of
 * waiting out a backoff of up to half an hour. Rows refused by the server with a reply keep their schedule.
 */
const TRANSPORT_FAILURE = '[transport] ';

/** True for errors raised before the SMTP server replied (nodemailer sets `responseCode` for every reply). */
function isTransportFailure(error: unknown): boolean {
  return !(error && typeof error === 'object' && 'responseCode' in error && error.responseCode);
}

const INSERT = `INSERT INTO mail_outbox (kind, recipient, subject, text_body, html_body, created_at, available_at, attempts, locked_until)
  VALUES (:kind, :recipient, :subject, :text, :html, :now, :now, 0, 0)`;

/**
 * Turns a stored request of another kind than `mail` into the mail to send, or null when there is nothing to send
 * (the row is then done). Runs after the answer, possibly in another process after a crash; must be idempotent.
 */
export type OutboxHandler = (row: { recipient: string; text: string }) => Promise<OutboxMessage | null>;

interface OutboxRow {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: number;
}

/**
 * Transactional outbox for mail (issue 15 item 9). A message is a row written with the action that sends it — in
 * its transaction when it has one, otherwise awaited before the response — so an acknowledged action never loses its
 * mail to a crash. Delivery happens after commit, in this process at once (`kick`) and from the job runner every few
 * seconds for whatever is left (a crash, an SMTP outage): each row is claimed by a conditional update checked by
 * affected rows, so replicas never send one twice at the same time, and failures are retried with backoff. Once sent,
 * the body is blanked: one-time links do not linger in the database.
 */
export function createMailOutbox(deps: Pick<Deps, 'db' | 'clock' | 'mailer' | 'logger'>) {
  const { db, mailer, logger } = deps;
  // The outbox's own times are the real clock's: delivery and retries happen in real time even in tests that move
  // the app's clock.
  const now = () => Date.now();

  const running = new Set<Promise<unknown>>();
  let again = false;
  let active: Promise<number> | null = null;

  const handlers = new Map<string, OutboxHandler>();

  async function enqueue(
    message: OutboxMessage,
    options: { transaction?: Transaction; kind?: string } = {},
  ): Promise<void> {
    const params = {
      kind: options.kind ?? 'mail',
      recipient: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      now: now(),
    };
    if (options.transaction) {
      await db.sequelize.query(INSERT, { replacements: params, transaction: options.transaction });
      options.transaction.afterCommit(() => kick());
      return;
    }
    await db.write(INSERT, params);
    kick();
  }

  /** Sends one claimed row; on failure schedules the next attempt. */
  async function deliver(row: OutboxRow): Promise<boolean> {
    try {
      const message: OutboxMessage = { to: row.recipient, subject: row.subject, text: row.text_body };
      if (row.html_body) message.html = row.html_body;
      await mailer.send(message);
      await db.write(
        `UPDATE mail_outbox SET sent_at = :now, text_body = '', html_body = NULL, last_error = NULL WHERE id = :id`,
        { id: row.id, now: now() },
      );
      return true;
    } catch (error) {
      const attempts = Number(row.attempts);
      const delay = MAIL_RETRY_DELAYS_MS[Math.min(attempts - 1, MAIL_RETRY_DELAYS_MS.length - 1)] ?? 0;
      const message =
        (isTransportFailure(error) ? TRANSPORT_FAILURE : '') +
        (error instanceof Error ? error.message : String(error));
      logger.warn({ err: error, mail_id: row.id, attempts }, 'mail delivery failed; will retry');
      await db.write(
        `UPDATE mail_outbox SET available_at = :next, locked_until = 0, last_error = :error WHERE id = :id`,
        { id: row.id, next: now() + delay, error: message.slice(0, 1000) },
      );
      return false;
    }
  }

  /** Turns a claimed request row into its mail (stored in place), or finishes it when there is nothing to send. */
  async function prepare(row: OutboxRow): Promise<OutboxRow | null> {
    const handler = handlers.get(row.kind);
    if (!handler) {
      // A process without this handler: leave the row to one that has it.
      await db.write('UPDATE mail_outbox SET locked_until = 0, available_at = :next WHERE id = :id', {
        id: row.id,
        next: now() + (MAIL_RETRY_DELAYS_MS[0] ?? 5_000),
      });
      return null;
    }
    try {
      const message = await handler({ recipient: row.recipient, text: row.text_body });
      if (!message) {
        await db.write(
          `UPDATE mail_outbox SET sent_at = :now, recipient = '', text_body = '', html_body = NULL WHERE id = :id`,
          { id: row.id, now: now() },
        );
        return null;
      }
      const prepared = {
        id: row.id,
        recipient: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
      };
      await db.write(
        `UPDATE mail_outbox SET kind = 'mail', recipient = :recipient, subject = :subject, text_body = :text,
            html_body = :html WHERE id = :id`,
        prepared,
      );
      return {
        ...row,
        kind: 'mail',
        recipient: prepared.recipient,
        subject: prepared.subject,
        text_body: prepared.text,
        html_body: prepared.html,
      };
    } catch (error) {
      logger.warn({ err: error, mail_id: row.id, kind: row.kind }, 'outbox request failed; will retry');
      await db.write('UPDATE mail_outbox SET locked_until = 0, available_at = :next WHERE id = :id', {
        id: row.id,
        next: now() + (MAIL_RETRY_DELAYS_MS[0] ?? 5_000),
      });
      return null;
    }
  }

  /**
   * Makes the rows held back by a transport failure due now (see TRANSPORT_FAILURE); returns how many. A read first,
   * so that a pass with nothing held back writes nothing.
   */
  async function releaseTransportFailures(): Promise<number> {
    const params = { now: now(), max: MAIL_MAX_ATTEMPTS, failure: `${TRANSPORT_FAILURE}%` };
    const held = `sent_at IS NULL AND available_at > :now AND attempts < :max AND last_error LIKE :failure`;
    const [any] = await db.read(`SELECT id FROM mail_outbox WHERE ${held} LIMIT 1`, params);
    return any ? db.write(`UPDATE mail_outbox SET available_at = :now WHERE ${held}`, params) : 0;
  }
  let firstPass = true;

  /** Claims and sends the messages that are due; returns how many were sent. */
  async function deliverDue(limit = 50): Promise<number> {
    if (firstPass) {
      firstPass = false;
      await releaseTransportFailures();
    }
    const started = now();
    const due = await db.sequelize.query<{ id: number }>(
      `SELECT id FROM mail_outbox
        WHERE sent_at IS NULL AND available_at <= :now AND locked_until < :now AND attempts < :max
        ORDER BY id LIMIT :limit`,
      { replacements: { now: started, max: MAIL_MAX_ATTEMPTS, limit }, type: QueryTypes.SELECT },
    );
    let sent = 0;
    for (const { id } of due) {
      const claimedAt = now();
      const claimed = await db.write(
        `UPDATE mail_outbox SET locked_until = :until, attempts = attempts + 1
          WHERE id = :id AND sent_at IS NULL AND locked_until < :now`,
        { id, now: claimedAt, until: claimedAt + MAIL_CLAIM_MS },
      );
      if (claimed !== 1) continue;
      const [row] = await db.read<OutboxRow>(
        'SELECT id, kind, recipient, subject, text_body, html_body, attempts FROM mail_outbox WHERE id = :id',
        { id },
      );
      const mail = row && row.kind !== 'mail' ? await prepare(row) : row;
      if (mail && (await deliver(mail))) sent += 1;
    }
    // The transport works: what an outage held back goes out in the next pass, not after its backoff.
    if (sent > 0 && (await releaseTransportFailures()) > 0) kick();
    return sent;
  }

  /** Starts delivery now (after a commit); runs collapse into one pass plus one follow-up. */
  function kick(): void {
    if (active) {
      again = true;
      return;
    }
    const pass: Promise<number> = deliverDue()
      .catch((error: unknown) => {
        logger.error({ err: error }, 'mail outbox pass failed');
        return 0;
      })
      .finally(() => {
        running.delete(pass);
        active = null;
        if (again) {
          again = false;
          kick();
        }
      });
    active = pass;
    running.add(pass);
  }

  return {
    enqueue,
    /** Registers how rows of `kind` become mail (see OutboxHandler). */
    handle(kind: string, handler: OutboxHandler): void {
      handlers.set(kind, handler);
    },
    deliverDue,
    kick,
    /** Resolves once every delivery started so far has finished (shutdown, tests). */
    async whenIdle(): Promise<void> {
      while (running.size > 0) await Promise.all([...running]);
    },
    /** Forgets sent messages past their retention (the job runner calls this). */
    async purgeSent(): Promise<number> {
      return db.write('DELETE FROM mail_outbox WHERE sent_at IS NOT NULL AND sent_at < :before', {
        before: now() - MAIL_SENT_RETENTION_MS,
      });
    },
  };
}
export type MailOutbox = ReturnType<typeof createMailOutbox>;

const outboxes = new WeakMap<object, MailOutbox>();
/** One outbox per database and process, shared by the services that send mail and the job runner. */
export function mailOutboxFor(deps: Pick<Deps, 'db' | 'clock' | 'mailer' | 'logger'>): MailOutbox {
  let outbox = outboxes.get(deps.db);
  if (!outbox) outboxes.set(deps.db, (outbox = createMailOutbox(deps)));
  return outbox;
}
