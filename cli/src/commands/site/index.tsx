import { Command } from 'commander';
import { Text } from 'ink';
import { Details, Table } from '../../components/table';
import type { CommandContext } from '../../lib/api';
import { defineCommand, examples, withContext } from '../../lib/command';
import { UserError } from '../../lib/errors';
import { partnerId } from '../partner/shared';

/** A site named by id or client id (not deleted). */
async function findSite(context: CommandContext, idOrClientId: string) {
  const { Site } = context.deps.db.models;
  const { Op } = await import('sequelize');
  const byId = /^[0-9a-f-]{36}$/i.test(idOrClientId) ? [{ id: idOrClientId }] : [];
  const site = await Site.findOne({
    where: { deleted_at: null, [Op.or]: [...byId, { client_id: idOrClientId }] },
  });
  if (!site) throw new UserError(`no site ${idOrClientId}`, 'See `attestly site list`.');
  return site;
}

const present = (site: Awaited<ReturnType<typeof findSite>>) => ({
  id: site.id,
  partner_id: site.partner_id,
  site_name: site.site_name,
  domain: site.domain,
  client_id: site.client_id,
  client_type: site.client_type,
  redirect_uris: site.redirect_uris,
  allowed_scopes: site.allowed_scopes,
  is_active: site.is_active,
  created_at: new Date(site.created_at).toISOString(),
});

const list = defineCommand<{ partner?: string }>(
  'list',
  (command) =>
    examples(
      command
        .description('List sites (OIDC clients)')
        .option('--partner <partner>', 'only this partner (id or email)'),
      ['attestly site list', 'attestly site list --partner billing@shop.example.com --json'],
    ),
  async (io, options) => {
    const sites = await withContext(io, async (context) => {
      const where: Record<string, unknown> = { deleted_at: null };
      if (options.partner) where.partner_id = await partnerId(context, options.partner);
      const rows = await context.deps.db.models.Site.findAll({ where, order: [['created_at', 'ASC']] });
      return rows.map(present);
    });
    io.result({ sites }, () => (
      <Table
        columns={['CLIENT ID', 'NAME', 'DOMAIN', 'TYPE', 'ACTIVE']}
        rows={sites.map((site) => [
          site.client_id,
          site.site_name,
          site.domain,
          site.client_type,
          site.is_active ? 'yes' : 'no',
        ])}
        empty="No sites."
      />
    ));
  },
);

const show = defineCommand(
  'show',
  (command) =>
    examples(command.description('Show a site').argument('<site>', 'id or client id'), [
      'attestly site show atc_…',
    ]),
  async (io, _options, args) => {
    const site = await withContext(io, async (context) =>
      present(await findSite(context, args[0] as string)),
    );
    io.result(site, () => (
      <Details
        entries={[
          ['id', site.id],
          ['name', site.site_name],
          ['domain', site.domain],
          ['client id', site.client_id],
          ['type', site.client_type],
          ['redirect URIs', site.redirect_uris.join(', ')],
          ['scopes', site.allowed_scopes.join(' ')],
          ['active', site.is_active ? 'yes' : 'no'],
          ['partner', site.partner_id],
        ]}
      />
    ));
  },
);

const deactivate = defineCommand(
  'deactivate',
  (command) =>
    examples(
      command
        .description(
          'Deactivate a site: it is refused as an OIDC client at once (its grants stay, reactivation is possible)',
        )
        .argument('<site>', 'id or client id'),
      ['attestly site deactivate atc_…'],
    ),
  async (io, _options, args) => {
    const site = await withContext(io, async (context) => {
      const found = await findSite(context, args[0] as string);
      const updated = await context.services.sites.update(
        found.partner_id,
        found.id,
        { is_active: false } as never,
        { ip: null, userAgent: 'attestly-cli' },
      );
      return present(updated);
    });
    io.result(site, <Text color="green">{`✔ ${site.site_name} (${site.client_id}) is deactivated.`}</Text>);
  },
);

export function siteCommand(): Command {
  return new Command('site')
    .description("Partners' sites (OIDC clients): list, show, deactivate")
    .addCommand(list)
    .addCommand(show)
    .addCommand(deactivate);
}
