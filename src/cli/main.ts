import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import type { Role } from '../platform/config.ts'
import { allRoles, ConfigError, loadConfig } from '../platform/config.ts'
import type { Command as KeyCommand } from '../platform/control-socket.ts'
import { DataDirLockedError, lockOwner } from '../platform/db/data-dir-lock.ts'
import { createLogger } from '../platform/logger.ts'
import { registerClientCommands } from './client/commands.ts'
import { ApiFailure, EXIT_API, EXIT_USAGE, UsageError } from './client/errors.ts'
import type { McpCommandOptions } from './mcp.ts'

// Each command loads only what it needs: `keys` and `migrate` never load the features' code, which
// would cost seconds of start-up before a one-line answer.
const runKeys = async (command: KeyCommand, output: 'json' | 'create' | 'list' | 'revoke' | 'signing') =>
  (await import('./keys.ts')).runKeys(loadConfig(), command, output)

function parseRoles(value: string): Role[] {
  const roles = value
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)
  const bad = roles.filter((r) => !allRoles.includes(r as Role))
  if (bad.length || roles.length === 0) {
    throw new InvalidArgumentError(`roles are a comma-separated subset of ${allRoles.join(', ')}`)
  }
  return roles as Role[]
}

/** --json, wherever it was given: the program's option (client commands) or the command's own. */
const jsonWanted = (cmd: Command): boolean => cmd.optsWithGlobals<{ json?: boolean }>().json === true

/** A positional id: checked in the action, so a bad one is a usage error with its message. */
function idArgument(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${JSON.stringify(value)}: must be a positive integer`)
  return n
}

function positiveInt(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer')
  return n
}

const program = new Command()
  .name('curata')
  .description('Curata: contextual segments, deals, pixel bot reports, content index, AdCP signals')
  .showHelpAfterError()
  // Usage errors exit 2 (docs/cli.md); the override is inherited by every command added below.
  .exitOverride()

program
  .command('serve')
  .description('run the service (default: all roles on the embedded database under DATA_DIR)')
  .addOption(new Option('--role <roles>', 'comma-separated roles: api, collector, worker').argParser(parseRoles).default([...allRoles]))
  .action(async (o: { role: Role[] }) => {
    const config = loadConfig()
    // Fail fast, before loading every feature, when another server holds the data dir; the lock
    // itself is taken when the database opens.
    const owner = config.databaseUrl ? null : lockOwner(config.dataDir)
    if (owner !== null) throw new DataDirLockedError(config.dataDir, owner)
    return (await import('./serve.ts')).runServe(config, o.role)
  })

program
  .command('mcp')
  .description('the AdCP signals agent over MCP on stdio, for local agents (key: CURATA_API_KEY or --api-key)')
  .option('--api-key <key>', 'API key (default: the CURATA_API_KEY environment variable)')
  .option('--url <url>', "relay to a running server's MCP endpoint, e.g. http://127.0.0.1:8080/mcp")
  .action(async (o: McpCommandOptions) => (await import('./mcp.ts')).runMcpStdio(loadConfig(), o))

program
  .command('migrate')
  .description('apply pending database migrations and exit')
  .action(async () => (await import('./migrate.ts')).runMigrate(loadConfig()))

program
  .command('catalog')
  .description('the public catalog of signals')
  .command('refresh')
  .description('recompute the catalog now instead of at its next turn (CATALOG_REFRESH_MINUTES)')
  .action(async () => (await import('./catalog.ts')).runCatalogRefresh(loadConfig()))

const keys = program.command('keys').description('manage API keys (stored hashed; a key is shown once)')
keys
  .command('create')
  .description('create a client and its API key, or another key for an existing client')
  .requiredOption('--name <name>', 'client name')
  .option('--client-id <id>', 'add a key to this existing client (key rotation)', positiveInt)
  .option('--live', 'a production credential: comply_test_controller refuses it on any deployment (docs/adcp.md)')
  .option('--json', 'print exactly one JSON object {client_id, api_key, name} (and live: true for --live)')
  .action(async (o: { name: string; clientId?: number; live?: boolean }, cmd: Command) =>
    runKeys(
      { cmd: 'keys.create', args: { name: o.name, ...(o.clientId ? { clientId: o.clientId } : {}), ...(o.live ? { live: true } : {}) } },
      jsonWanted(cmd) ? 'json' : 'create',
    ),
  )
keys
  .command('list')
  .description('list keys: id, client, prefix, created, revoked')
  .option('--json', 'print JSON')
  .action(async (_o: unknown, cmd: Command) => runKeys({ cmd: 'keys.list', args: {} }, jsonWanted(cmd) ? 'json' : 'list'))
keys
  .command('revoke <id>')
  .description('revoke a key at once')
  .action(async (id: string) => runKeys({ cmd: 'keys.revoke', args: { id: idArgument(id) } }, 'revoke'))

keys
  .command('signing-add <key-id> <jwks-file>')
  .description('register the public keys of a JWKS for RFC 9421 signed requests at /mcp, acting for API key <key-id>')
  .option('--revoked <kid...>', 'put these kids of the JWKS on the revocation list')
  .option('--replay-cap <n>', 'nonces a key may record per 60 s before request_signature_rate_abuse (default 1000000)', positiveInt)
  .action(async (id: string, file: string, o: { revoked?: string[]; replayCap?: number }) => {
    const { readJwks } = await import('../adcp/signing/commands.ts')
    const args = { keyId: idArgument(id), jwks: readJwks(file), revoked: o.revoked ?? [], ...(o.replayCap ? { replayCap: o.replayCap } : {}) }
    await runKeys({ cmd: 'keys.signing.add', args }, 'signing')
  })
keys
  .command('signing-list')
  .description('list request-signing keys: kid, API key, client, use, alg, cap, revoked')
  .action(async () => runKeys({ cmd: 'keys.signing.list', args: {} }, 'signing'))
keys
  .command('signing-revoke <kid>')
  .description('put a request-signing key on the revocation list')
  .action(async (kid: string) => runKeys({ cmd: 'keys.signing.revoke', args: { kid } }, 'signing'))

// The client commands: call the REST API of a running service.
registerClientCommands(program, () => loadConfig())

try {
  await program.parseAsync(process.argv)
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : EXIT_USAGE)
  if (err instanceof UsageError) {
    console.error(`curata: ${err.message}`)
    process.exit(EXIT_USAGE)
  }
  if (err instanceof ApiFailure) {
    console.error(`curata: ${err.message}`)
    process.exit(EXIT_API)
  }
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(`curata: ${err.message}`)
    process.exit(1)
  }
  createLogger({ logLevel: 'error' }).error({ err }, 'curata failed')
  console.error(`curata: ${(err as Error).message}`)
  process.exit(1)
}
