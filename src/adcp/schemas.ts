/**
 * The tools' input and output schemas (zod). Inputs accept both request shapes in use: the
 * interface spec's (`deliver_to.deployments[{platform, account}]`, `deliver_to.countries`,
 * `max_results`) and AdCP 3.x's (top-level `destinations[]`, `countries`, `pagination`,
 * `idempotency_key`, `pricing_option_id`), plus the 2.x spellings older clients send. Unknown
 * fields are allowed (AdCP schemas are open). Outputs are described loosely: every field optional,
 * extras allowed, so one schema covers results and `isError` results.
 */
import { z } from 'zod'

const platform = z.string().trim().min(1).max(100).describe('DSP platform identifier: a slug or alias, e.g. the-trade-desk, ttd, dv360')
const account = z.string().trim().min(1).max(200).describe('buyer account (seat) on the platform')

export const Destination = z
  .looseObject({
    type: z.enum(['platform', 'agent']).optional().describe('platform (a DSP) or agent (a sales agent); platform when omitted'),
    platform: platform.optional(),
    agent_url: z.url().max(2000).optional().describe('URL of a sales agent (type agent)'),
    account: account.optional(),
  })
  .describe('where a signal is (to be) deployed')
export type Destination = z.infer<typeof Destination>

const Countries = z.array(z.string().trim().min(2).max(3)).max(250).describe('ISO 3166-1 alpha-2 country codes')

export const DeliverTo = z
  .looseObject({
    deployments: z.array(Destination).max(50).optional().describe('each has platform and account'),
    destinations: z.array(Destination).max(50).optional().describe('AdCP 2.4 spelling of deployments'),
    platforms: z
      .union([z.literal('all'), z.array(z.union([platform, Destination])).max(50)])
      .optional()
      .describe('AdCP 1.x/2.x spelling'),
    accounts: z.array(Destination).max(50).optional().describe('AdCP 1.x/2.x: {platform, account} pairs'),
    countries: Countries.optional(),
  })
  .describe('where signals must be deployable (the interface spec and AdCP 2.x form)')
export type DeliverTo = z.infer<typeof DeliverTo>

const SignalIdObject = z.looseObject({
  source: z.string().max(50).optional(),
  scope: z.string().max(50).optional(),
  id: z.string().max(300).optional(),
  signal_id: z.string().max(300).optional(),
  data_provider_domain: z.string().max(300).optional(),
  agent_url: z.string().max(2000).optional(),
  signal_source_url: z.string().max(2000).optional(),
})
export const SignalRef = z.union([z.string().max(300), SignalIdObject]).describe('a signal_id/signal_ref object from get_signals, or a signal_agent_segment_id')
export type SignalRef = z.infer<typeof SignalRef>

const Context = z.record(z.string(), z.unknown()).describe('opaque object echoed unchanged in the response')

export const PushNotificationConfig = z
  .looseObject({
    url: z.url().max(2048),
    operation_id: z.string().min(1).max(255).optional(),
    token: z.string().min(16).max(4096).optional(),
    authentication: z
      .looseObject({
        schemes: z
          .array(z.enum(['Bearer', 'HMAC-SHA256']))
          .min(1)
          .max(1),
        credentials: z.string().min(32).max(4096),
      })
      .optional(),
  })
  .describe('where to POST the result of a task that does not complete at once')
export type PushNotificationConfig = z.infer<typeof PushNotificationConfig>
const Ext = z.record(z.string(), z.unknown())

const Envelope = {
  context_id: z.string().max(100).optional().describe('context_id of an earlier call: fields this call omits are taken from it'),
  context: Context.optional(),
  ext: Ext.optional(),
  account: z.unknown().optional().describe('AdCP 3.x account reference (the API key already identifies the client)'),
  adcp_version: z.string().max(40).optional(),
  adcp_major_version: z.number().int().optional(),
}

export const GetSignalsInput = z.looseObject({
  signal_spec: z.string().trim().max(2000).optional().describe('natural-language description of the desired targeting'),
  signal_ids: z.array(SignalRef).max(100).optional().describe('look these signals up instead of (or as well as) searching'),
  signal_refs: z.array(SignalRef).max(100).optional(),
  discovery_mode: z.enum(['brief', 'wholesale']).optional().describe('wholesale: list the catalog without a spec'),
  deliver_to: DeliverTo.optional(),
  destinations: z
    .union([z.array(Destination).max(50), DeliverTo])
    .optional()
    .describe('AdCP 3.x: platforms/agents to report deployments for'),
  countries: Countries.optional(),
  filters: z
    .looseObject({
      catalog_types: z
        .array(z.enum(['marketplace', 'custom', 'owned']))
        .max(3)
        .optional(),
      max_cpm: z.number().min(0).optional(),
      min_coverage_percentage: z.number().min(0).max(100).optional(),
      data_providers: z.array(z.string().max(200)).max(50).optional(),
      max_percent: z.number().optional(),
    })
    .optional(),
  max_results: z.number().int().min(1).optional().describe('most signals to return (at most 100)'),
  pagination: z.looseObject({ max_results: z.number().int().min(1).optional(), cursor: z.string().max(200).optional() }).optional(),
  if_wholesale_feed_version: z
    .string()
    .max(200)
    .optional()
    .describe('wholesale mode: the version you hold; an unchanged feed answers unchanged: true without signals'),
  if_pricing_version: z.string().max(200).optional().describe('only with if_wholesale_feed_version (pricing is versioned with the feed)'),
  push_notification_config: PushNotificationConfig.optional(),
  ...Envelope,
})
export type GetSignalsInput = z.infer<typeof GetSignalsInput>

export const ActivateSignalInput = z.looseObject({
  signal_agent_segment_id: z.string().trim().min(1).max(300).describe('as returned by get_signals'),
  deliver_to: DeliverTo.optional().describe('the interface spec form: deployments [{platform, account}]'),
  destinations: z
    .union([z.array(Destination).max(20), DeliverTo])
    .optional()
    .describe('AdCP 3.x form'),
  deployments: z.array(Destination).max(20).optional().describe('AdCP 2.5 form'),
  platform: platform.optional().describe('AdCP 2.x form'),
  idempotency_key: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{16,255}$/, 'must be 16 to 255 characters of A-Z a-z 0-9 _ . : - (a fresh UUID v4 per request)')
    .optional()
    .describe('a fresh key per request (e.g. a UUID v4), required from AdCP 3 callers; a retry with the same key returns the same activation'),
  pricing_option_id: z.string().max(300).optional(),
  action: z.enum(['activate', 'deactivate']).optional(),
  countries: Countries.optional().describe('geo of the deal'),
  ...Envelope,
})
export type ActivateSignalInput = z.infer<typeof ActivateSignalInput>

export const CapabilitiesInput = z.looseObject({
  protocols: z.array(z.string().max(50)).max(20).optional(),
  context: Context.optional(),
  ext: Ext.optional(),
  adcp_version: z.string().max(40).optional(),
  adcp_major_version: z.number().int().optional(),
})
export type CapabilitiesInput = z.infer<typeof CapabilitiesInput>

export const GetTaskStatusInput = z.looseObject({
  task_id: z.string().min(1).max(128),
  include_result: z.boolean().optional(),
  include_history: z.boolean().optional(),
  account: z.unknown().optional(),
  context: Context.optional(),
  ext: Ext.optional(),
})
export type GetTaskStatusInput = z.infer<typeof GetTaskStatusInput>

const Strings = z.array(z.string().max(128)).max(100)
export const ListTasksInput = z.looseObject({
  account: z.unknown().optional(),
  filters: z
    .looseObject({
      task_ids: Strings.optional(),
      task_type: z.string().max(64).optional(),
      task_types: Strings.optional(),
      status: z.string().max(32).optional(),
      statuses: Strings.optional(),
      protocol: z.string().max(64).optional(),
      protocols: Strings.optional(),
      has_webhook: z.boolean().optional(),
    })
    .optional(),
  pagination: z.looseObject({ max_results: z.number().int().min(1).optional(), cursor: z.string().max(200).optional() }).optional(),
  include_history: z.boolean().optional(),
  context: Context.optional(),
  ext: Ext.optional(),
})
export type ListTasksInput = z.infer<typeof ListTasksInput>

export const ComplyTestControllerInput = z.looseObject({
  scenario: z.string().min(1).max(100),
  account: z.unknown().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  context: Context.optional(),
  ext: Ext.optional(),
})
export type ComplyTestControllerInput = z.infer<typeof ComplyTestControllerInput>

// ---- outputs -------------------------------------------------------------------------------------

const ErrorShape = z.looseObject({ code: z.string(), message: z.string(), recovery: z.string().optional(), field: z.string().optional() })

const Common = {
  status: z.string().optional(),
  adcp_version: z.string().optional(),
  message: z.string().optional(),
  context_id: z.string().optional(),
  context: Context.optional(),
  adcp_error: ErrorShape.optional(),
  errors: z.array(ErrorShape).optional(),
  replayed: z.boolean().optional(),
  sandbox: z.boolean().optional(),
}

const Deployment = z.looseObject({
  type: z.enum(['platform', 'agent']),
  platform: z.string().optional(),
  agent_url: z.string().optional(),
  account: z.string().nullable().optional(),
  is_live: z.boolean(),
  scope: z.enum(['platform', 'account']).optional(),
  decisioning_platform_segment_id: z.string().nullable().optional(),
  estimated_activation_duration_minutes: z.number().optional(),
  activation_key: z.looseObject({ type: z.string() }).optional(),
  deployed_at: z.string().optional(),
})

const Signal = z.looseObject({
  signal_agent_segment_id: z.string(),
  signal_id: z.looseObject({ source: z.string(), id: z.string() }),
  name: z.string(),
  description: z.string(),
  signal_type: z.enum(['marketplace', 'custom', 'owned']),
  data_provider: z.string(),
  coverage_percentage: z.number(),
  deployments: z.array(Deployment),
  pricing: z.looseObject({ cpm: z.number(), currency: z.string() }),
  pricing_options: z.array(z.looseObject({ pricing_option_id: z.string(), model: z.string() })),
})

export const GetSignalsOutput = z.looseObject({
  ...Common,
  cache_scope: z.enum(['public', 'account']).optional(),
  signals: z.array(Signal).optional(),
  pagination: z.looseObject({ has_more: z.boolean(), cursor: z.string().optional(), total_count: z.number().optional() }).optional(),
})

export const ActivateSignalOutput = z.looseObject({
  ...Common,
  deployments: z.array(Deployment).optional(),
  activation: z
    .looseObject({
      signal_agent_segment_id: z.string(),
      deal_id: z.string().nullable(),
      platform: z.string(),
      account: z.string().nullable(),
      status: z.string(),
      estimated_activation_duration_minutes: z.number(),
    })
    .optional(),
})

export const CapabilitiesOutput = z.looseObject({
  ...Common,
  adcp: z.looseObject({ major_versions: z.array(z.number()) }).optional(),
  supported_protocols: z.array(z.string()).optional(),
})

export const TaskStatusOutput = z.looseObject({
  ...Common,
  task_id: z.string().optional(),
  task_type: z.string().optional(),
  protocol: z.string().optional(),
  has_webhook: z.boolean().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
})

export const ListTasksOutput = z.looseObject({
  ...Common,
  query_summary: z.looseObject({ total_matching: z.number(), returned: z.number() }).optional(),
  tasks: z.array(z.looseObject({ task_id: z.string(), status: z.string() })).optional(),
})

export const ControllerOutput = z.looseObject({ ...Common, success: z.boolean().optional(), error: z.string().optional() })
