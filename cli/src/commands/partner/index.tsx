import { Command } from 'commander';
import { Box, Text } from 'ink';
import * as v from 'valibot';
import { ADMIN_PARTNER_PLANS } from '@attestly/contracts';
import { Details, Table } from '../../components/table';
import type { CommandContext } from '../../lib/api';
import { defineCommand, examples, withContext } from '../../lib/command';
import { UserError } from '../../lib/errors';
import { CLI_ACTOR, partnerId } from './shared';

type PartnerDetail = Awaited<ReturnType<CommandContext['services']['admin']['partners']['detail']>>;

function PartnerView({ partner }: { partner: PartnerDetail }) {
  return (
    <Box flexDirection="column">
      <Details
        entries={[
          ['id', partner.id],
          ['name', partner.partner_name],
          ['contact', `${partner.contact_name ?? ''} <${partner.contact_email}>`],
          ['website', partner.website],
          ['status', partner.status],
          ['plan', partner.plan],
          ['api key', partner.api_key],
          ['verifications', partner.statistics.total_verifications],
          ['active tokens', partner.statistics.active_oauth_auths],
        ]}
      />
      <Text> </Text>
      <Table
        columns={['SITE', 'DOMAIN', 'CLIENT ID', 'ACTIVE']}
        rows={partner.sites.map((site) => [
          site.site_name,
          site.domain,
          site.client_id,
          site.is_active ? 'yes' : 'no',
        ])}
        empty="No sites."
      />
    </Box>
  );
}

const list = defineCommand<{ status?: string; search?: string }>(
  'list',
  (command) =>
    examples(
      command
        .description('List partners')
        .option('--status <status>', 'active, suspended or pending_verification')
        .option('--search <text>', 'name, email or contact contains'),
      ['attestly partner list', 'attestly partner list --status pending_verification --json'],
    ),
  async (io, options) => {
    const result = await withContext(io, async (context) => {
      const { adminPartnerListQuery } = await import('@attestly/contracts');
      const query = v.parse(adminPartnerListQuery, {
        limit: '100',
        ...(options.status ? { status: options.status } : {}),
        ...(options.search ? { search: options.search } : {}),
      });
      return context.services.admin.partners.list(query);
    });
    io.result(result, () => (
      <Table
        columns={['ID', 'NAME', 'EMAIL', 'STATUS', 'PLAN', 'SITES']}
        rows={result.partners.map((partner) => [
          partner.id,
          partner.partner_name,
          partner.contact_email,
          partner.status,
          partner.plan,
          String(partner.total_sites ?? ''),
        ])}
        empty="No partners."
      />
    ));
  },
);

const show = defineCommand(
  'show',
  (command) =>
    examples(
      command.description('Show a partner, its sites and statistics').argument('<partner>', 'id or email'),
      ['attestly partner show billing@shop.example.com'],
    ),
  async (io, _options, args) => {
    const partner = await withContext(io, async (context) =>
      context.services.admin.partners.detail(await partnerId(context, args[0] as string)),
    );
    io.result(partner, () => <PartnerView partner={partner} />);
  },
);

interface CreateOptions {
  name: string;
  email: string;
  contact: string;
  website: string;
  plan?: string;
  pending?: boolean;
}

const create = defineCommand<CreateOptions>(
  'create',
  (command) =>
    examples(
      command
        .description(
          'Create a partner account (active at once unless --pending); prints its first password once',
        )
        .requiredOption('--name <name>', 'partner (company) name')
        .requiredOption('--email <email>', 'contact and sign-in email')
        .requiredOption('--contact <name>', 'contact person')
        .requiredOption('--website <url>', 'website')
        .option('--plan <plan>', `one of ${ADMIN_PARTNER_PLANS.join(', ')}`, 'starter')
        .option('--pending', 'needs approval (`partner activate`) and mails the contact'),
      [
        'attestly partner create --name "Acme Games" --email ops@acme.example --contact "Ada Lovelace" --website https://acme.example',
      ],
    ),
  async (io, options) => {
    const created = await withContext(io, async (context) => {
      const { adminCreatePartnerBody } = await import('@attestly/contracts');
      const body = v.parse(adminCreatePartnerBody, {
        partner_name: options.name,
        contact_email: options.email,
        contact_name: options.contact,
        website: options.website,
        plan: options.plan,
        status: options.pending ? 'pending_verification' : 'active',
        skip_email_verification: !options.pending,
      });
      return context.services.admin.partners.create(body, CLI_ACTOR);
    });
    io.result(created, () => (
      <Box flexDirection="column">
        <PartnerView partner={created} />
        <Text> </Text>
        <Text>
          {'First password (shown once): '}
          <Text bold color="cyan">
            {created.temporary_password}
          </Text>
        </Text>
      </Box>
    ));
  },
);

function statusCommand(name: 'activate' | 'suspend') {
  return defineCommand<{ reason?: string; notify?: boolean }>(
    name,
    (command) =>
      examples(
        command
          .description(
            name === 'activate'
              ? 'Approve or reactivate a partner'
              : 'Suspend a partner (ends its sign-ins; its API keys stop working)',
          )
          .argument('<partner>', 'id or email')
          .option('--reason <text>', 'recorded in the audit log (and the mail)')
          .option('--notify', 'mail the partner'),
        [
          `attestly partner ${name} billing@shop.example.com --reason "${name === 'activate' ? 'documents checked' : 'chargebacks'}"`,
        ],
      ),
    async (io, options, args) => {
      const partner = await withContext(io, async (context) => {
        const id = await partnerId(context, args[0] as string);
        const body = { reason: options.reason ?? null, notify_partner: !!options.notify };
        return name === 'activate'
          ? context.services.admin.partners.approve(id, body as never, CLI_ACTOR)
          : context.services.admin.partners.suspend(id, body as never, CLI_ACTOR);
      });
      io.result(partner, <Text color="green">{`✔ ${partner.partner_name} is ${partner.status}.`}</Text>);
    },
  );
}

const plan = defineCommand(
  'plan',
  (command) =>
    examples(
      command
        .description("Assign a partner's plan (without Stripe billing)")
        .argument('<partner>', 'id or email')
        .argument('<plan>', ADMIN_PARTNER_PLANS.join(', ')),
      ['attestly partner plan billing@shop.example.com growth'],
    ),
  async (io, _options, args) => {
    const planName = args[1] as string;
    if (!(ADMIN_PARTNER_PLANS as readonly string[]).includes(planName))
      throw new UserError(`unknown plan ${planName}`, `Use one of ${ADMIN_PARTNER_PLANS.join(', ')}.`);
    const partner = await withContext(io, async (context) => {
      const id = await partnerId(context, args[0] as string);
      return context.services.admin.partners.update(id, { plan: planName } as never, CLI_ACTOR);
    });
    io.result(
      partner,
      <Text color="green">{`✔ ${partner.partner_name} is on the ${partner.plan} plan.`}</Text>,
    );
  },
);

const rotateKey = defineCommand(
  'rotate-key',
  (command) =>
    examples(
      command
        .description("Replace a partner's live API key (the old one stops working); prints the new key once")
        .argument('<partner>', 'id or email'),
      ['attestly partner rotate-key billing@shop.example.com --json'],
    ),
  async (io, _options, args) => {
    const result = await withContext(io, async (context) =>
      context.services.admin.partners.regenerateApiKey(
        await partnerId(context, args[0] as string),
        CLI_ACTOR,
      ),
    );
    io.result(result, () => (
      <Box flexDirection="column">
        <Text color="green">{`✔ ${result.message}`}</Text>
        <Text>
          {'API key: '}
          <Text bold color="cyan">
            {result.api_key}
          </Text>
        </Text>
      </Box>
    ));
  },
);

export function partnerCommand(): Command {
  return new Command('partner')
    .description('Partner accounts: list, show, create, activate, suspend, plan, rotate-key')
    .addCommand(list)
    .addCommand(show)
    .addCommand(create)
    .addCommand(statusCommand('activate'))
    .addCommand(statusCommand('suspend'))
    .addCommand(plan)
    .addCommand(rotateKey);
}
