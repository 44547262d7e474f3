/**
 * An SSP connector issues and maintains Deal IDs on a supply-side platform. The built-in `sandbox`
 * connector is the default; real SSP connectors (Magnite, PubMatic, Index Exchange, Microsoft
 * Curate, …) implement the same interface.
 */
export interface DealTargeting {
  /** Domains the deal may serve on, after KPI shaping. */
  domains: string[]
  /** Page URLs of the segments, best first (SSPs that target by URL list take these). */
  urls: string[]
  geo: string[] | null
  formats: string[] | null
  devices: string[] | null
}

export interface DealRequest {
  /** The idempotency key of createDeal: one activation, one deal. */
  activationId: number
  clientId: number
  dsp: string
  buyerSeat: string
  /** The client already has a live connection to this DSP seat through this connector. */
  knownConnection: boolean
  startDate: string | null
  endDate: string | null
  budget: { amount: number; currency: string } | null
  targeting: DealTargeting
}

export interface IssuedDeal {
  dealId: string
  /** When the deal becomes targetable in the DSP (the SSP's sync latency). */
  readyAt: Date
  /** Hours an unused deal stays live before the SSP may shut it down. */
  ttlHours: number
}

/** A failure the SSP reported; `retryable` failures are retried with backoff, others fail at once. */
export class ConnectorError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message)
  }
}

/**
 * Contract for every connector: createDeal is idempotent per activation. The issue job may call it
 * again for the same `activationId` (its result could not be recorded, the worker died, a retry after
 * a timeout the SSP had in fact completed); the SSP must then answer with the deal it already
 * created, never issue a second one. A connector achieves this by looking the deal up by the
 * activation id first (the sandbox keeps it in `sandbox_deals.activation_id`; a real SSP by an
 * external reference or deal name carrying the activation id) and creating only when none exists.
 */
export interface SspConnector {
  readonly name: string
  /** True for connectors that do not reach a real SSP: shown to users on every activation. */
  readonly sandbox: boolean
  /** Issues the activation's deal, or returns the one already issued for it (see the contract above). */
  createDeal(req: DealRequest, now: Date): Promise<IssuedDeal>
  /** Pushes a new targeting (after an optimization) to a live deal. */
  updateDeal(dealId: string, targeting: DealTargeting, now: Date): Promise<void>
  deactivateDeal(dealId: string, reason: string, now: Date): Promise<void>
}
