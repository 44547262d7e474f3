/**
 * The client commands (docs/cli.md): call the REST API of a running service. Every command takes
 * --url, --api-key and --json (anywhere on the line); results go to stdout, notes and progress to
 * stderr.
 */
import type { Command } from 'commander'
import { InvalidArgumentError } from 'commander'

import type { PromptReading } from '../../curation/segments/schemas.ts'
import type { Config } from '../../platform/config.ts'
import type { Api } from './api.ts'
import { createApi } from './api.ts'
import { ApiFailure, UsageError } from './errors.ts'
import { downloadExport } from './export.ts'
import { readUrls } from './input.ts'
import { note, printJson, printRecord, printTable } from './output.ts'
import type { GlobalFlags } from './settings.ts'
import { checkUrl, resolveTarget, writeStored } from './settings.ts'
import { waitUntil } from './wait.ts'

type Flags = GlobalFlags & { pollInterval?: number }
type Rec = Record<string, unknown>

export const positiveInt = (value: string): number => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer')
  return n
}
/** An id given as an argument: a positive integer, else a usage error (exit 2). */
const idOf = (value: string): number => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${JSON.stringify(value)} is not an id (a positive integer)`)
  return n
}
const collect = (value: string, previous: string[] = []) => [...previous, value]
const date = (value: string): string => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new InvalidArgumentError('must be a date YYYY-MM-DD')
  return value
}

/** Runs a client command: the configuration, the target and the API, and --json. */
function client(loadConfig: () => Config, fn: (c: { api: Api; json: boolean; flags: Flags; poll: number }, ...args: never[]) => Promise<void>) {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command
    const flags = cmd.optsWithGlobals<Flags>()
    const config = loadConfig()
    const api = createApi(resolveTarget(flags, config))
    await fn({ api, json: flags.json === true, flags, poll: flags.pollInterval ?? 1000 }, ...(args.slice(0, -1) as never[]))
  }
}

const show = (json: boolean, value: Rec) => (json ? printJson(value) : printRecord(value))

function showList(json: boolean, rows: Rec[], columns: Record<string, string>): void {
  if (json) printJson(rows)
  else printTable(rows, columns)
}

export function registerClientCommands(program: Command, loadConfig: () => Config): void {
  program
    .option('--url <url>', 'the Curata service (client commands; default CURATA_URL or the login file)')
    .option('--api-key <key>', 'API key (client commands; default CURATA_API_KEY or the login file)')
    .option('--json', 'print JSON instead of tables')
    .option('--poll-interval <ms>', 'how often --wait asks for progress', positiveInt)

  program
    .command('login')
    .description('check a service URL and API key, and save them (mode 0600) for the client commands')
    .action(async (_o: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<Flags>()
      const config = loadConfig()
      const url = flags.url ?? config.client.url
      const apiKey = flags.apiKey ?? config.apiKey
      if (!url || !apiKey) throw new UsageError('curata login needs --url and --api-key (or CURATA_URL and CURATA_API_KEY)')
      const target = { url: checkUrl(url), apiKey }
      await createApi(target).get('/v1/webhooks')
      writeStored(config.client.configFile, target)
      note(`logged in to ${target.url}; saved to ${config.client.configFile}`)
    })

  program
    .command('scrape [file]')
    .description('submit the URLs of a file (one per line, or a JSON array; - for stdin) as a scrape job')
    .option('--job <id>', 'follow an existing job instead of submitting one', positiveInt)
    .option('--wait', 'wait for the job, then write every result (JSON Lines)')
    .option('--out <file>', 'with --wait: write the results here instead of stdout')
    .action(
      client(loadConfig, async ({ api, json, poll }, file: string | undefined, o: { job?: number; wait?: boolean; out?: string }) => {
        if (!file && !o.job) throw new UsageError('curata scrape needs a file of URLs (- for stdin) or --job <id>')
        if (file && o.job) throw new UsageError('give either a file or --job, not both')
        let job: Rec
        let announce: string | undefined
        if (file) {
          job = await api.post<Rec>('/v1/scraping/jobs', { urls: await readUrls(file) })
          announce = `scrape job ${job.id}: ${job.url_count} URLs (${job.invalid_url_count} invalid)`
        } else job = await api.get<Rec>(`/v1/scraping/jobs/${o.job}`, { limit: 1 })
        if (!o.wait) {
          if (announce !== undefined) note(announce)
          return show(json, { ...job, results: undefined, invalid_urls: undefined })
        }
        const id = job.id as number
        const done = await waitUntil({
          announce,
          label: `scrape job ${id}`,
          resume: `curata scrape --job ${id} --wait${o.out ? ` --out ${o.out}` : ''}`,
          intervalMs: poll,
          poll: () => api.get<Rec>(`/v1/scraping/jobs/${id}`, { limit: 1 }),
          finished: (r) => r.status !== 'pending' && r.status !== 'processing',
          progress: (r) => r.progress as { done: number; total: number },
        })
        if (done.status === 'failed') throw new ApiFailure(null, 'job_failed', `scrape job ${id} failed: ${done.failure_reason}`)
        const outcome = await downloadExport(api, `/v1/scraping/jobs/${id}/export`, {}, { out: o.out ?? null, lineEnd: '\n', header: false, countErrors: true })
        const counts = [...outcome.errorCounts].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k === 'none' ? 'no error' : k} ${n}`)
        note(`scrape job ${id} ${done.status}: ${outcome.records} results${o.out ? ` written to ${o.out}` : ''} (${counts.join(', ') || 'none'})`)
        if (json && o.out) printJson({ ...done, results: undefined, results_written: outcome.records, error_counts: Object.fromEntries(outcome.errorCounts) })
      }),
    )

  program
    .command('search <url>')
    .description('look a URL up in the content index (submitting it when it is unknown)')
    .action(
      client(loadConfig, async ({ api, json }, url: string) => {
        const r = await api.post<Rec>('/v1/scraping/search', { url })
        if (json) return printJson(r)
        const content = r.content as Rec | null | undefined
        printRecord({
          url: r.url,
          errors: r.errors ?? r.status,
          title: content?.title,
          language: content?.language,
          words: content?.word_count,
          published: r.published_date,
        })
      }),
    )

  const segments = program.command('segments').description('segment requests: create, read, list, export their URLs')
  segments
    .command('create')
    .description('create a segment request from a prompt and/or example URLs')
    .option('--prompt <text>', 'what the audience reads')
    .option('--name <name>', 'a name for the segment')
    .option('--example-url <url>', 'a seed URL (repeatable)', collect)
    .option('--block-domain <domain>', 'a domain to leave out (repeatable)', collect)
    .option('--block-keyword <word>', 'leave out pages containing it (repeatable)', collect)
    .option('--wait', 'wait for the build to complete')
    .action(
      client(
        loadConfig,
        async (
          { api, json, poll },
          o: { prompt?: string; name?: string; exampleUrl?: string[]; blockDomain?: string[]; blockKeyword?: string[]; wait?: boolean },
        ) => {
          if (!o.prompt && !o.exampleUrl) throw new UsageError('segments create needs --prompt or --example-url')
          let seg = await api.post<Rec>('/v1/curation/segment-requests', {
            ...(o.name ? { name: o.name } : {}),
            ...(o.prompt ? { prompt: o.prompt } : {}),
            ...(o.exampleUrl ? { example_urls: o.exampleUrl } : {}),
            ...(o.blockDomain ? { block_tlds: o.blockDomain } : {}),
            ...(o.blockKeyword ? { block_keywords: o.blockKeyword } : {}),
          })
          note(`segment ${seg.id} created`)
          if (o.wait) seg = await waitSegment(api, seg.id as number, poll)
          show(json, seg)
        },
      ),
    )
  segments
    .command('read <prompt>')
    .description('how a segment request would read a prompt, without creating one')
    .action(
      client(loadConfig, async ({ api, json }, prompt: string) => {
        const r = await api.post<PromptReading>('/v1/curation/prompt-interpretations', { prompt })
        if (json) return printJson(r)
        if (r.message) note(r.message)
        const i = r.interpretation
        const named = (cs: { name: string; weight: number }[]) => cs.map((c) => `${c.name} ${Math.round(c.weight * 100)}%`).join(', ')
        printRecord({
          topics: named(i.categories),
          'words searched': i.terms.join(', '),
          'related words': i.expansions.join(', '),
          audience: i.audience.join(', '),
          countries: i.geo.join(', '),
          'topics excluded': named(i.blocks.categories),
          'words excluded': i.blocks.terms.join(', '),
          ignored: i.ignored.map((w) => `${w.word} (${w.why})`).join(', '),
        })
      }),
    )
  segments
    .command('get <id>')
    .description('one segment request')
    .option('--wait', 'wait for its build to complete')
    .action(
      client(loadConfig, async ({ api, json, poll }, id: string, o: { wait?: boolean }) => {
        const n = idOf(id)
        show(json, o.wait ? await waitSegment(api, n, poll) : await api.get<Rec>(`/v1/curation/segment-requests/${n}`))
      }),
    )
  segments
    .command('list')
    .description('your segment requests')
    .option('--limit <n>', 'at most this many', positiveInt)
    .option('--offset <n>', 'skip this many', (v) => (v === '0' ? 0 : positiveInt(v)))
    .action(
      client(loadConfig, async ({ api, json }, o: { limit?: number; offset?: number }) => {
        const rows = await api.get<Rec[]>('/v1/curation/segment-requests', { limit: o.limit, offset: o.offset })
        showList(json, rows, { id: 'id', name: 'name', status: 'status', url_count: 'URLs', created_date: 'created', processed_date: 'processed' })
      }),
    )
  segments
    .command('urls <id>')
    .description("the segment's whole URL list, streamed")
    .option('--format <format>', 'csv or jsonl', (v) => {
      if (v !== 'csv' && v !== 'jsonl') throw new InvalidArgumentError('must be csv or jsonl')
      return v
    })
    .option('--out <file>', 'write here instead of stdout')
    .action(
      client(loadConfig, async ({ api }, id: string, o: { format?: 'csv' | 'jsonl'; out?: string }) => {
        const format = o.format ?? 'csv'
        const r = await downloadExport(
          api,
          `/v1/curation/segment-requests/${idOf(id)}/export`,
          { format },
          { out: o.out ?? null, lineEnd: format === 'csv' ? '\r\n' : '\n', header: format === 'csv', countErrors: false },
        )
        note(`${r.records} URLs${o.out ? ` written to ${o.out}` : ''}`)
      }),
    )

  program
    .command('optimize <segment>')
    .description('add similar content to a segment or block URLs, domains or keywords')
    .option('--expand-url <url>', 'add pages like this one (repeatable)', collect)
    .option('--expand-domain <domain>', 'add pages like this domain’s (repeatable)', collect)
    .option('--block-url <url>', 'remove this URL (repeatable)', collect)
    .option('--block-domain <domain>', 'remove this domain (repeatable)', collect)
    .option('--block-keyword <word>', 'remove pages containing it (repeatable)', collect)
    .option('--wait', 'wait until it is applied')
    .action(
      client(
        loadConfig,
        async (
          { api, json, poll },
          segment: string,
          o: { expandUrl?: string[]; expandDomain?: string[]; blockUrl?: string[]; blockDomain?: string[]; blockKeyword?: string[]; wait?: boolean },
        ) => {
          const expand =
            o.expandUrl || o.expandDomain
              ? { ...(o.expandUrl ? { urls: o.expandUrl } : {}), ...(o.expandDomain ? { domains: o.expandDomain } : {}) }
              : undefined
          const block =
            o.blockUrl || o.blockDomain || o.blockKeyword
              ? {
                  ...(o.blockUrl ? { urls: o.blockUrl } : {}),
                  ...(o.blockDomain ? { domains: o.blockDomain } : {}),
                  ...(o.blockKeyword ? { keywords: o.blockKeyword } : {}),
                }
              : undefined
          if (!expand && !block) throw new UsageError('optimize needs at least one --expand-… or --block-… option')
          let opt = await api.post<Rec>('/v1/curation/optimizations', { segment_id: idOf(segment), ...(expand ? { expand } : {}), ...(block ? { block } : {}) })
          const accepted = `optimization ${opt.id} accepted`
          if (o.wait) {
            const id = opt.id as number
            opt = await waitUntil({
              announce: accepted,
              label: `optimization ${id}`,
              resume: `curata optimizations get ${id}`,
              intervalMs: poll,
              poll: () => api.get<Rec>(`/v1/curation/optimizations/${id}`),
              finished: (r) => r.outcome !== 'pending',
            })
            if (opt.outcome === 'failed') throw new ApiFailure(null, 'optimization_failed', `optimization ${id} failed: ${JSON.stringify(opt.result)}`)
          } else note(accepted)
          show(json, opt)
        },
      ),
    )

  program
    .command('activate <segments...>')
    .description('activate segments on a DSP seat: a Deal ID')
    .requiredOption('--dsp <dsp>', 'DSP slug (GET /v1/curation/dsps)')
    .requiredOption('--seat <seat>', 'buyer seat on that DSP')
    .option('--start <date>', 'start date YYYY-MM-DD', date)
    .option('--end <date>', 'end date YYYY-MM-DD', date)
    .option('--wait', 'wait for the Deal ID')
    .action(
      client(loadConfig, async ({ api, json, poll }, ids: string[], o: { dsp: string; seat: string; start?: string; end?: string; wait?: boolean }) => {
        let a = await api.post<Rec>('/v1/curation/activations', {
          segment_ids: ids.map((v) => idOf(v)),
          dsp: o.dsp,
          buyer_seat: o.seat,
          ...(o.start ? { start_date: o.start } : {}),
          ...(o.end ? { end_date: o.end } : {}),
        })
        const issued = `activation ${a.id} ${a.status}`
        if (o.wait) {
          const id = a.id as number
          a = await waitUntil({
            announce: issued,
            label: `activation ${id}`,
            resume: `curata activations get ${id} --wait`,
            intervalMs: poll,
            poll: () => api.get<Rec>(`/v1/curation/activations/${id}`),
            finished: (r) => r.status === 'complete' || r.status === 'failed',
          })
          if (a.status === 'failed') throw new ApiFailure(null, 'activation_failed', `activation ${id} failed: ${a.failure_reason}`)
        } else note(issued)
        show(json, a)
      }),
    )
  program
    .command('activations')
    .description('activations')
    .command('get <id>')
    .option('--wait', 'wait for the Deal ID')
    .action(
      client(loadConfig, async ({ api, json, poll }, id: string, o: { wait?: boolean }) => {
        const n = idOf(id)
        const get = () => api.get<Rec>(`/v1/curation/activations/${n}`)
        show(
          json,
          o.wait
            ? await waitUntil({
                label: `activation ${n}`,
                resume: `curata activations get ${n} --wait`,
                intervalMs: poll,
                poll: get,
                finished: (r) => r.status !== 'pending' && r.status !== 'processing',
              })
            : await get(),
        )
      }),
    )
  program
    .command('optimizations')
    .description('optimizations')
    .command('get <id>')
    .action(client(loadConfig, async ({ api, json }, id: string) => show(json, await api.get<Rec>(`/v1/curation/optimizations/${idOf(id)}`))))

  const reports = program.command('reports').description('reports')
  reports
    .command('publisher <campaign>')
    .description('a publisher bot-traffic report of a pixel campaign')
    .requiredOption('--from <date>', 'first day YYYY-MM-DD', date)
    .requiredOption('--to <date>', 'last day YYYY-MM-DD', date)
    .option('--dimensions <list>', 'comma-separated: date, path, agent, …')
    .option('--report <id>', 'follow an existing report instead of creating one', positiveInt)
    .option('--wait', 'wait for the report')
    .action(
      client(
        loadConfig,
        async ({ api, json, poll }, campaign: string, o: { from: string; to: string; dimensions?: string; report?: number; wait?: boolean }) => {
          let r = o.report
            ? await api.get<Rec>(`/v1/pixel/reports/publisher/${o.report}`)
            : await api.post<Rec>('/v1/pixel/reports/publisher', {
                campaign_id: idOf(campaign),
                start_date: o.from,
                end_date: o.to,
                ...(o.dimensions ? { dimensions: o.dimensions.split(',').map((d) => d.trim()) } : {}),
              })
          const id = r.id as number
          const requested = o.report ? undefined : `publisher report ${id} ${r.status}`
          if (o.wait) {
            r = await waitUntil({
              announce: requested,
              label: `publisher report ${id}`,
              resume: `curata reports publisher ${campaign} --from ${o.from} --to ${o.to} --report ${id} --wait`,
              intervalMs: poll,
              poll: () => api.get<Rec>(`/v1/pixel/reports/publisher/${id}`),
              finished: (x) => x.status === 'complete' || x.status === 'failed',
            })
            if (r.status === 'failed') throw new ApiFailure(null, 'report_failed', `publisher report ${id} failed: ${r.failure_reason}`)
          } else if (requested !== undefined) note(requested)
          if (json) return printJson(r)
          printRecord({ id: r.id, status: r.status, campaign_id: r.campaign_id, from: r.start_date, to: r.end_date, ...((r.summary as Rec | null) ?? {}) })
          if (Array.isArray(r.agents) && r.agents.length)
            printTable(r.agents as Rec[], { agent: 'agent', category: 'category', loads: 'loads', share: 'share' })
        },
      ),
    )

  const pixel = program.command('pixel').description('pixel campaigns and their tags')
  const campaigns = pixel.command('campaigns').description('pixel campaigns')
  campaigns.command('list').action(
    client(loadConfig, async ({ api, json }) => {
      const rows = await api.get<Rec[]>('/v1/pixel/campaigns')
      showList(json, rows, { id: 'id', name: 'name', use_case: 'use case', created_date: 'created' })
    }),
  )
  campaigns
    .command('create')
    .requiredOption('--name <name>', 'campaign name')
    .requiredOption('--use-case <useCase>', 'e.g. publisher_bot_detection')
    .option('--description <text>')
    .action(
      client(loadConfig, async ({ api, json }, o: { name: string; useCase: string; description?: string }) =>
        show(json, await api.post<Rec>('/v1/pixel/campaigns', { name: o.name, use_case: o.useCase, ...(o.description ? { description: o.description } : {}) })),
      ),
    )
  pixel
    .command('tag <campaign>')
    .description("a campaign's tag code")
    .action(
      client(loadConfig, async ({ api, json }, campaign: string) => {
        const tag = await api.get<Rec>(`/v1/pixel/campaigns/${idOf(campaign)}/tag`)
        if (json) return printJson(tag)
        process.stdout.write(`${tag.javascript_tag}\n`)
      }),
    )

  const webhooks = program.command('webhooks').description('webhook subscriptions and their deliveries')
  webhooks.command('list').action(
    client(loadConfig, async ({ api, json }) => {
      const rows = await api.get<Rec[]>('/v1/webhooks')
      showList(json, rows, { id: 'id', url: 'url', event_types: 'events', status: 'status', created_date: 'created' })
    }),
  )
  webhooks
    .command('create <receiver>')
    .description('subscribe the receiver URL to event types; the signing secret is shown once')
    .requiredOption('--event <type>', 'an event type (repeatable)', collect)
    .option('--description <text>')
    .action(
      client(loadConfig, async ({ api, json }, receiver: string, o: { event: string[]; description?: string }) => {
        const created = await api.post<Rec>('/v1/webhooks', { url: receiver, event_types: o.event, ...(o.description ? { description: o.description } : {}) })
        show(json, created)
        if (!json) note('the secret is shown this once: keep it to verify signatures')
      }),
    )
  webhooks.command('get <id>').action(client(loadConfig, async ({ api, json }, id: string) => show(json, await api.get<Rec>(`/v1/webhooks/${idOf(id)}`))))
  webhooks.command('delete <id>').action(
    client(loadConfig, async ({ api }, id: string) => {
      await api.delete(`/v1/webhooks/${idOf(id)}`)
      note(`webhook ${id} deleted`)
    }),
  )
  webhooks
    .command('test <id>')
    .action(client(loadConfig, async ({ api, json }, id: string) => show(json, await api.post<Rec>(`/v1/webhooks/${idOf(id)}/test`))))
  webhooks
    .command('deliveries <id>')
    .option('--status <status>', 'pending, delivered or failed')
    .option('--limit <n>', 'at most this many (≤ 100)', positiveInt)
    .action(
      client(loadConfig, async ({ api, json }, id: string, o: { status?: string; limit?: number }) => {
        const rows = await api.get<Rec[]>(`/v1/webhooks/${idOf(id)}/deliveries`, { status: o.status, limit: o.limit })
        showList(json, rows, {
          id: 'id',
          event_type: 'event',
          status: 'status',
          attempts: 'attempts',
          last_response_status: 'last answer',
          last_error: 'error',
          created_date: 'created',
        })
      }),
    )
  webhooks
    .command('redeliver <id> <delivery>')
    .action(
      client(loadConfig, async ({ api, json }, id: string, delivery: string) =>
        show(json, await api.post<Rec>(`/v1/webhooks/${idOf(id)}/deliveries/${idOf(delivery)}/redeliver`)),
      ),
    )
}

function waitSegment(api: Api, id: number, intervalMs: number): Promise<Rec> {
  return waitUntil({
    label: `segment ${id}`,
    resume: `curata segments get ${id} --wait`,
    intervalMs,
    poll: () => api.get<Rec>(`/v1/curation/segment-requests/${id}`),
    finished: (r) => r.processed_date != null,
  })
}
