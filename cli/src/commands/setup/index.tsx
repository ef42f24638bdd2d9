import { render } from 'ink';
import { Box, Text } from 'ink';
import { defineCommand, examples } from '../../lib/command';
import { UserError } from '../../lib/errors';
import { ask, askNewPassword, closePrompts, readStdin } from '../../lib/prompt';
import { applySetup, nextSteps, type SetupAnswers } from './steps';
import { SETUP_STEPS, SetupWizard } from './wizard';

interface SetupOptions {
  yes?: boolean;
  dataDir?: string;
  databaseUrl?: string;
  publicUrl?: string;
  smtpUrl?: string;
  stripeSecretKey?: string;
  stripeWebhookSecret?: string;
  adminEmail?: string;
  adminPasswordStdin?: boolean;
}

function runWizard(defaults: Partial<SetupAnswers>): Promise<SetupAnswers> {
  return new Promise((resolve) => {
    const instance = render(
      <SetupWizard
        defaults={defaults}
        onDone={(answers) => {
          instance.unmount();
          resolve(answers);
        }}
      />,
      { stdout: process.stderr as unknown as NodeJS.WriteStream },
    );
  });
}

/** `attestly setup`: first run — config file, master key, migrations, first administrator. */
export const setupCommand = defineCommand<SetupOptions>(
  'setup',
  (command) =>
    examples(
      command
        .description(
          'First run: choose database, public URL, mail and billing; write the config and master key; migrate; create the first administrator',
        )
        .option('-y, --yes', 'no questions: take the flags and defaults (scripts, containers)')
        .option('--public-url <url>', 'where users reach Attestly')
        .option('--smtp-url <url>', 'SMTP server (default: mail is written to <data dir>/outbox)')
        .option('--stripe-secret-key <key>', 'Stripe secret key (optional)')
        .option('--stripe-webhook-secret <secret>', 'Stripe webhook signing secret (optional)')
        .option('--admin-email <email>', 'create the first administrator')
        .option('--admin-password-stdin', "read that administrator's password from standard input")
        .addHelpText(
          'after',
          '\nThe data directory and database come from the global --data-dir and --database-url.',
        ),
      [
        'attestly setup',
        'attestly --data-dir /var/lib/attestly setup --yes --public-url https://verify.example.com',
        'printf \'%s\' "$PW" | attestly --database-url postgres://attestly@db/attestly setup --yes --public-url https://verify.example.com --admin-email ops@example.com --admin-password-stdin --json',
      ],
    ),
  async (io, options) => {
    const defaults: Partial<SetupAnswers> = {
      dataDir: options.dataDir ?? process.env.ATTESTLY_DATA_DIR ?? './data',
      databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL ?? '',
      publicUrl: options.publicUrl ?? 'http://localhost:8080',
      smtpUrl: options.smtpUrl ?? '',
      stripeSecretKey: options.stripeSecretKey ?? '',
      stripeWebhookSecret: options.stripeWebhookSecret ?? '',
    };
    let answers: SetupAnswers;
    if (options.yes) {
      answers = defaults as SetupAnswers;
      // The wizard's checks, in its order, on the flags' values (the data directory comes from a global flag).
      const problems: string[] = [];
      for (const step of SETUP_STEPS(defaults).filter((each) => each.key !== 'dataDir')) {
        const problem = await step.check(answers[step.key]);
        if (problem) problems.push(problem);
      }
      if (problems.length)
        throw new UserError(problems.join('; '), 'Fix the flags and run `attestly setup --yes` again.');
    } else if (process.stdin.isTTY && !io.json) {
      answers = await runWizard(defaults);
    } else {
      throw new UserError(
        'setup needs a terminal for its questions',
        'Pass --yes with flags (see `attestly setup --help`).',
      );
    }
    const result = await applySetup(answers);

    let adminEmail = options.adminEmail ?? '';
    if (!adminEmail && !options.yes)
      adminEmail = (await ask('First administrator email (empty to skip):')).trim();
    let admin: { email: string } | null = null;
    if (adminEmail) {
      const password = options.adminPasswordStdin
        ? await readStdin()
        : process.stdin.isTTY
          ? await askNewPassword(`Password for ${adminEmail}:`)
          : (() => {
              throw new UserError('no terminal to prompt for the password', 'Pass --admin-password-stdin.');
            })();
      closePrompts();
      const { openCommandContext } = await import('../../lib/api');
      const context = await openCommandContext({ debug: io.debug });
      try {
        admin = await context.services.admins.createAdmin({ email: adminEmail, password });
      } finally {
        await context.close();
      }
    }
    closePrompts();
    const next = nextSteps(answers.dataDir, admin?.email ?? null);
    io.result(
      {
        ok: true,
        config_file: result.configFile,
        master_key_file: result.masterKeyFile,
        master_key_created: result.masterKeyCreated,
        database: result.database,
        migrations: result.migrations,
        admin: admin ? { email: admin.email } : null,
        next_steps: next,
      },
      () => (
        <Box flexDirection="column">
          <Text color="green">{`✔ Config written to ${result.configFile} (mode 600)`}</Text>
          <Text color="green">{`✔ Master key ${result.masterKeyCreated ? 'created' : 'kept'}: ${result.masterKeyFile} — back it up; backups and sealed data need it`}</Text>
          <Text color="green">{`✔ ${result.database} database migrated (${result.migrations.length} applied)`}</Text>
          {admin ? <Text color="green">{`✔ Administrator ${admin.email} created`}</Text> : null}
          <Text> </Text>
          <Text bold>Next:</Text>
          {next.map((line) => (
            <Text key={line}>{`  ${line}`}</Text>
          ))}
        </Box>
      ),
    );
  },
);
