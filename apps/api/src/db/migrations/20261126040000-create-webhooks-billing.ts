import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Webhook endpoints, their delivery queue and per-attempt log (DESIGN.md §6; the events themselves stay in
 * `event_outbox`, one row per event), the grants whose expiry was announced (token.expired), and billing: Stripe
 * subscription state per partner, monthly usage counters, processed Stripe events and checkout sessions.
 */
export const up: Migration = async ({ context: qi }) => {
  const partnerRef = {
    type: DataTypes.UUID,
    allowNull: false,
    references: { model: 'partners', key: 'id' },
    onDelete: 'CASCADE',
  } as const;

  await qi.createTable('webhook_endpoints', {
    id: { type: DataTypes.UUID, primaryKey: true },
    partner_id: partnerRef,
    url: { type: DataTypes.STRING(2000), allowNull: false },
    events: { type: DataTypes.TEXT, allowNull: false },
    /** AES-256-GCM sealed signing secret (the receiver needs the same secret, so it cannot be a hash). */
    secret_sealed: { type: DataTypes.TEXT, allowNull: false },
    secret_hint: { type: DataTypes.STRING(8), allowNull: false },
    active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    disabled_reason: DataTypes.STRING(200),
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('webhook_endpoints', ['partner_id', 'created_at'], { name: 'webhook_endpoints_partner' });

  await qi.createTable('webhook_deliveries', {
    id: { type: DataTypes.UUID, primaryKey: true },
    event_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'event_outbox', key: 'id' },
      onDelete: 'CASCADE',
    },
    endpoint_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'webhook_endpoints', key: 'id' },
      onDelete: 'CASCADE',
    },
    partner_id: { type: DataTypes.UUID, allowNull: false },
    event: { type: DataTypes.STRING(64), allowNull: false },
    status: { type: DataTypes.STRING(16), allowNull: false },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    next_attempt_at: DataTypes.DATE,
    /** Retries stop after this (the event's time plus the retry window, or a redelivery's). */
    give_up_at: { type: DataTypes.DATE, allowNull: false },
    /** A claim: the replica holding it may send until this time; others skip the row. */
    locked_until: DataTypes.DATE,
    locked_by: DataTypes.STRING(64),
    last_status_code: DataTypes.INTEGER,
    created_at: { type: DataTypes.DATE, allowNull: false },
    delivered_at: DataTypes.DATE,
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('webhook_deliveries', ['status', 'next_attempt_at'], { name: 'webhook_deliveries_due' });
  await qi.addIndex('webhook_deliveries', ['endpoint_id', 'created_at'], {
    name: 'webhook_deliveries_endpoint',
  });
  await qi.addIndex('webhook_deliveries', ['event_id'], { name: 'webhook_deliveries_event' });

  await qi.createTable('webhook_attempts', {
    id: { type: DataTypes.UUID, primaryKey: true },
    delivery_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'webhook_deliveries', key: 'id' },
      onDelete: 'CASCADE',
    },
    attempt: { type: DataTypes.INTEGER, allowNull: false },
    status_code: DataTypes.INTEGER,
    error: DataTypes.STRING(300),
    latency_ms: { type: DataTypes.INTEGER, allowNull: false },
    response_excerpt: DataTypes.TEXT,
    created_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('webhook_attempts', ['delivery_id', 'attempt'], { name: 'webhook_attempts_delivery' });
  await qi.addIndex('event_outbox', ['created_at'], { name: 'event_outbox_created' });

  await qi.createTable('token_expiry_events', {
    grant_id: { type: DataTypes.STRING(128), primaryKey: true },
    notified_at: { type: DataTypes.DATE, allowNull: false },
  });

  await qi.createTable('partner_subscriptions', {
    partner_id: { ...partnerRef, primaryKey: true },
    status: { type: DataTypes.STRING(16), allowNull: false },
    stripe_customer_id: DataTypes.STRING(255),
    stripe_subscription_id: DataTypes.STRING(255),
    current_period_end: DataTypes.DATE,
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('partner_subscriptions', ['stripe_subscription_id'], {
    name: 'partner_subscriptions_stripe_subscription',
  });
  await qi.addIndex('partner_subscriptions', ['stripe_customer_id'], {
    name: 'partner_subscriptions_stripe_customer',
  });

  await qi.createTable('usage_counters', {
    partner_id: { ...partnerRef, primaryKey: true },
    /** The calendar month (UTC) as YYYY-MM. */
    period: { type: DataTypes.STRING(7), primaryKey: true },
    used: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });

  await qi.createTable('stripe_events', {
    id: { type: DataTypes.STRING(255), primaryKey: true },
    type: { type: DataTypes.STRING(100), allowNull: false },
    received_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.createTable('stripe_checkout_sessions', {
    id: { type: DataTypes.STRING(255), primaryKey: true },
    partner_id: partnerRef,
    plan: { type: DataTypes.STRING(32), allowNull: false },
    completed_at: { type: DataTypes.DATE, allowNull: false },
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('stripe_checkout_sessions');
  await qi.dropTable('stripe_events');
  await qi.dropTable('usage_counters');
  await qi.dropTable('partner_subscriptions');
  await qi.dropTable('token_expiry_events');
  await qi.removeIndex('event_outbox', 'event_outbox_created');
  await qi.dropTable('webhook_attempts');
  await qi.dropTable('webhook_deliveries');
  await qi.dropTable('webhook_endpoints');
};
