import type { CommandContext } from '../../lib/api';
import { UserError } from '../../lib/errors';

/**
 * Who acts, for audit entries written by the back-office services: no administrator account is signed in on the
 * command line, so the entry carries no admin id and names the CLI as its user agent.
 */
export const CLI_ACTOR = { adminUserId: null as unknown as string, ip: null, userAgent: 'attestly-cli' };

/** A partner named by id or by email. */
export async function partnerId(context: CommandContext, idOrEmail: string): Promise<string> {
  const { Partner } = context.deps.db.models;
  const { fn, col, where } = await import('sequelize');
  const partner = idOrEmail.includes('@')
    ? await Partner.findOne({ where: where(fn('LOWER', col('email')), idOrEmail.toLowerCase()) })
    : /^[0-9a-f-]{36}$/i.test(idOrEmail)
      ? await Partner.findByPk(idOrEmail)
      : null;
  if (!partner) throw new UserError(`no partner ${idOrEmail}`, 'See `attestly partner list`.');
  return partner.id;
}
