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

export interface SspConnector {
  readonly name: string
  /** True for connectors that do not reach a real SSP: shown to users on every activation. */
  readonly sandbox: boolean
  createDeal(req: DealRequest, now: Date): Promise<IssuedDeal>
  /** Pushes a new targeting (after an optimization) to a live deal. */
  updateDeal(dealId: string, targeting: DealTargeting, now: Date): Promise<void>
  deactivateDeal(dealId: string, reason: string, now: Date): Promise<void>
}
