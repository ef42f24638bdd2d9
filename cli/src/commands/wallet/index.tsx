import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { Text } from 'ink';
import { Table } from '../../components/table';
import { defineCommand, examples, reports, withContext } from '../../lib/command';
import type { CommandContext } from '../../lib/api';
import { UserError } from '../../lib/errors';

/** The credential issuer's key set (apps/api/src/modules/users/wallet/key-store.ts), as the running servers build it. */
async function keyStore(context: CommandContext) {
  const { createWalletKeyStore } = await import('../../../../apps/api/src/modules/users/wallet/key-store');
  const { config } = context.deps;
  return createWalletKeyStore(
    { db: context.deps.db, masterKey: config.masterKey, clock: context.deps.clock },
    {
      issuer: `${config.publicUrl}/oauth2`,
      credentialDays: config.wallet.credentialDays,
      country: config.wallet.country,
    },
  );
}

function readFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new UserError(`cannot read the ${what} file ${file}`, 'check the path and its permissions');
  }
}

/** Operator mistakes in a certificate or key file are one line and exit 1, not a bug. */
async function operatorMistakes<T>(work: () => Promise<T>): Promise<T> {
  const { WalletKeyError } = await import('../../../../apps/api/src/modules/users/wallet/key-store');
  try {
    return await work();
  } catch (error) {
    if (error instanceof WalletKeyError) throw new UserError(error.message, 'see `attestly wallet --help`');
    throw error;
  }
}

async function audit(context: CommandContext, event: string, details: Record<string, unknown>) {
  await context.services.audit.record({ event, severity: 'warning', userAgent: 'attestly-cli', details });
}

const list = defineCommand(
  'list',
  (command) =>
    reports(command, 'List the credential root, document signers and trust anchors', 'attestly wallet list'),
  async (io) => {
    const certificates = await withContext(io, async (context) =>
      (await (await keyStore(context)).list()).map((row) => ({
        id: row.id,
        kind: row.kind,
        state: row.retiredAt ? 'retired' : 'current',
        label: row.label,
        not_after: row.notAfter.toISOString(),
        signs_until: row.signsUntil?.toISOString() ?? null,
      })),
    );
    io.result({ certificates }, () => (
      <Table
        columns={['ID', 'KIND', 'STATE', 'VALID UNTIL', 'SIGNS UNTIL', 'LABEL']}
        rows={certificates.map((row) => [
          row.id,
          row.kind,
          row.state,
          row.not_after.slice(0, 10),
          row.signs_until?.slice(0, 10) ?? '',
          row.label ?? '',
        ])}
        empty="No wallet certificates yet: they are created with the first wallet credential, or by `attestly wallet rotate`."
      />
    ));
  },
);

const rotate = defineCommand(
  'rotate',
  (command) =>
    examples(
      command
        .description(
          'Start a new document signer now (one signs for at most 90 days, then the servers replace it themselves). With --new-root, also a new credential root: partners must pin it, and credentials under the old one stop verifying for them once they drop it.',
        )
        .option('--new-root', 'also replace the credential root'),
      ['attestly wallet rotate', 'attestly wallet rotate --new-root --json'],
    ),
  async (io, options: { newRoot?: boolean }) => {
    const result = await withContext(io, async (context) => {
      const rotated = await (await keyStore(context)).rotate({ newRoot: !!options.newRoot });
      await audit(context, 'wallet.keys_rotated', rotated);
      return rotated;
    });
    io.result(
      { ok: true, ...result },
      <Text color="green">{`✔ New document signer ${result.signer}${result.root ? `, new root ${result.root}` : ''}.`}</Text>,
    );
  },
);

const importSigner = defineCommand(
  'import-signer',
  (command) =>
    examples(
      command
        .description(
          "Sign credentials with a document-signer certificate from your own CA or a QTSP instead of Attestly's root. The certificate file holds the signer first, then its issuers; a self-signed CA at the end becomes a trust anchor.",
        )
        .requiredOption('--certificate <file>', 'PEM chain: the signer certificate, then its issuers')
        .requiredOption('--key <file>', "the signer's P-256 private key, PKCS#8 PEM")
        .option('--label <text>', 'a name to list it under'),
      ['attestly wallet import-signer --certificate ds-chain.pem --key ds-key.pem'],
    ),
  async (io, options: { certificate: string; key: string; label?: string }) => {
    const chainPem = readFile(options.certificate, 'certificate');
    const privateKeyPem = readFile(options.key, 'key');
    const result = await withContext(io, async (context) => {
      const imported = await operatorMistakes(async () =>
        (await keyStore(context)).importSigner({ chainPem, privateKeyPem, label: options.label }),
      );
      await audit(context, 'wallet.signer_imported', { signer: imported.signer, subject: imported.subject });
      return imported;
    });
    io.result(
      { ok: true, ...result, signs_until: result.signsUntil.toISOString() },
      <Text color="green">{`✔ Imported signer ${result.subject}; it signs until ${result.signsUntil.toISOString().slice(0, 10)}.`}</Text>,
    );
  },
);

const trustAdd = defineCommand(
  'add',
  (command) =>
    examples(
      command
        .argument('<file>', 'PEM file with one or more CA certificates')
        .description(
          'Trust wallet credentials issued under these CA certificates (EU age-verification providers, PID providers) when partners accept wallet proofs. Attestly trusts its own root without this.',
        )
        .option('--label <text>', 'a name to list them under'),
      ['attestly wallet trust add eu-av-providers.pem --label "EU AV trusted list"'],
    ),
  async (io, options: { label?: string }, [file = '']) => {
    const pem = readFile(file, 'certificate');
    const ids = await withContext(io, async (context) => {
      const added = await operatorMistakes(async () =>
        (await keyStore(context)).importAnchors(pem, options.label),
      );
      await audit(context, 'wallet.anchors_added', { ids: added });
      return added;
    });
    io.result(
      { ok: true, added: ids },
      <Text color="green">{`✔ ${ids.length} trust anchor(s) added.`}</Text>,
    );
  },
);

const trustRemove = defineCommand(
  'remove',
  (command) =>
    examples(
      command
        .argument('<id>', 'the anchor id from `attestly wallet list`')
        .description('Stop trusting an anchor'),
      ['attestly wallet trust remove 3fTq9bX2k1Lm'],
    ),
  async (io, _options, [id = '']) => {
    await withContext(io, async (context) => {
      if (!(await (await keyStore(context)).removeAnchor(id)))
        throw new UserError(`no trust anchor ${id}`, 'list them with `attestly wallet list`');
      await audit(context, 'wallet.anchor_removed', { id });
    });
    io.result({ ok: true, removed: id }, <Text color="green">{`✔ Trust anchor ${id} removed.`}</Text>);
  },
);

const root = defineCommand(
  'root',
  (command) =>
    examples(
      command.description(
        'Print the credential root(s) as PEM: what partners and verifiers pin (also served at /.well-known/attestly/credential-root.pem)',
      ),
      ['attestly wallet root > attestly-credential-root.pem'],
    ),
  async (io) => {
    const pem = await withContext(io, async (context) => (await keyStore(context)).rootBundle());
    io.result({ pem }, <Text>{pem.trimEnd()}</Text>);
  },
);

/** Wallets registered for the authorization code flow (apps/api/src/modules/users/wallet/clients.ts). */
async function walletClients(context: CommandContext) {
  const { createWalletClients } = await import('../../../../apps/api/src/modules/users/wallet/clients');
  return createWalletClients({ db: context.deps.db, clock: context.deps.clock });
}

const clientsAdd = defineCommand(
  'add',
  (command) =>
    examples(
      command
        .argument('<client-id>', 'the client id the wallet uses (its provider publishes it)')
        .description(
          'Let a wallet obtain credentials through the authorization code flow: the user picks Attestly in the wallet, signs in here and consents. A public client (no secret); PKCE is required and redirect URIs must match exactly. It may ask only for credential configurations (scope proof_of_age and/or age_sd_jwt).',
        )
        .requiredOption(
          '--redirect-uri <uri...>',
          "the wallet's redirect URIs: claimed https, a private-use scheme, or http on a loopback address",
        )
        .option('--name <text>', 'the name the consent screen shows (defaults to the client id)'),
      [
        'attestly wallet clients add eu.europa.ec.eudi.wallet --redirect-uri eudi-openid4ci://authorize --name "EU Wallet"',
      ],
    ),
  async (io, options: { redirectUri: string[]; name?: string }, [clientId = '']) => {
    const added = await withContext(io, async (context) => {
      const { WalletClientError } = await import('../../../../apps/api/src/modules/users/wallet/clients');
      let client;
      try {
        client = await (
          await walletClients(context)
        ).add({
          clientId,
          name: options.name,
          redirectUris: options.redirectUri,
        });
      } catch (error) {
        if (error instanceof WalletClientError)
          throw new UserError(error.message, 'see `attestly wallet clients add --help`');
        throw error;
      }
      await audit(context, 'wallet.client_added', {
        client_id: client.clientId,
        name: client.name,
        redirect_uris: client.redirectUris,
      });
      return client;
    });
    io.result(
      { ok: true, client_id: added.clientId, name: added.name, redirect_uris: added.redirectUris },
      <Text color="green">{`✔ Wallet ${added.clientId} registered (${added.redirectUris.length} redirect URI(s)).`}</Text>,
    );
  },
);

const clientsList = defineCommand(
  'list',
  (command) =>
    examples(command.description('List the wallets registered for the authorization code flow'), [
      'attestly wallet clients list --json',
    ]),
  async (io) => {
    const clients = await withContext(io, async (context) =>
      (await (await walletClients(context)).list()).map((client) => ({
        client_id: client.clientId,
        name: client.name,
        redirect_uris: client.redirectUris,
        created_at: client.createdAt.toISOString(),
      })),
    );
    io.result({ clients }, () => (
      <Table
        columns={['CLIENT ID', 'NAME', 'REDIRECT URIS', 'ADDED']}
        rows={clients.map((client) => [
          client.client_id,
          client.name,
          client.redirect_uris.join(' '),
          client.created_at.slice(0, 10),
        ])}
        empty="No wallets registered: wallets use the offers of “Add to wallet”. Register one with `attestly wallet clients add`."
      />
    ));
  },
);

const clientsRemove = defineCommand(
  'remove',
  (command) =>
    examples(
      command
        .argument('<client-id>', 'a client id from `attestly wallet clients list`')
        .description(
          'Unregister a wallet: its sign-ins and tokens stop working (within two seconds on every replica)',
        ),
      ['attestly wallet clients remove eu.europa.ec.eudi.wallet'],
    ),
  async (io, _options, [clientId = '']) => {
    await withContext(io, async (context) => {
      if (!(await (await walletClients(context)).remove(clientId)))
        throw new UserError(`no wallet client ${clientId}`, 'list them with `attestly wallet clients list`');
      await audit(context, 'wallet.client_removed', { client_id: clientId });
    });
    io.result({ ok: true, removed: clientId }, <Text color="green">{`✔ Wallet ${clientId} removed.`}</Text>);
  },
);

export function walletCommand(): Command {
  return new Command('wallet')
    .description(
      'Wallet credentials: the credential root, document signers, trusted issuers and registered wallets',
    )
    .addCommand(list)
    .addCommand(rotate)
    .addCommand(importSigner)
    .addCommand(
      new Command('trust')
        .description('Issuers whose wallet credentials partners accept')
        .addCommand(trustAdd)
        .addCommand(trustRemove),
    )
    .addCommand(
      new Command('clients')
        .description('Wallets that may obtain credentials through the authorization code flow')
        .addCommand(clientsAdd)
        .addCommand(clientsList)
        .addCommand(clientsRemove),
    )
    .addCommand(root);
}
