/**
 * Every job kind and its payload, checked at compile time for enqueue() and for handlers. Each
 * feature declares its own kinds where it defines their handlers, by merging into this interface
 * (the pattern of graphile-worker's `GraphileWorker.Tasks`):
 *
 *   declare module '../platform/jobs/kinds.ts' {
 *     interface JobPayloads { 'activation.issue': { id: number } }
 *   }
 */
export interface JobPayloads {
  'platform.maintenance': Periodic
}

/** The payload of a periodic job (a handler with `everyMs`): the worker enqueues it, empty. */
export type Periodic = Record<string, never>

export type JobKind = keyof JobPayloads

/** The kinds whose payload is P (e.g. every report job's {reportId, clientId}). */
export type KindsWithPayload<P> = { [K in JobKind]: JobPayloads[K] extends P ? K : never }[JobKind]
