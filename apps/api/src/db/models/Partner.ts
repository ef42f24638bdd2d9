import { DEFAULT_PLAN } from '@attestly/contracts';
import {
  accountColumns,
  nullable,
  required,
  signInColumns,
  sql,
  stamp,
  stampedTable,
  withDefault,
} from './columns';

/** A partner business account (spec 01 §1, §3); separate credentials from end users (spec 01 §6). */
export class Partner extends stampedTable('partners', {
  ...accountColumns(),
  company_name: required(sql.string(200)),
  contact_name: nullable(sql.string(120)),
  phone: nullable(sql.string(32)),
  website: nullable(sql.string(300)),
  business_type: nullable(sql.string(40)),
  /** active, suspended or pending_verification (spec 02 "Partner status"). */
  status: withDefault(sql.string(32), 'active'),
  plan: withDefault(sql.string(32), DEFAULT_PLAN),
  ...signInColumns(),
  /** When the partner opened the verification link sent at registration; null until then. */
  email_verified_at: nullable(sql.date()),
  created_at: stamp(),
  updated_at: stamp(),
}) {}
