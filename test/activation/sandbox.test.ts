import { describe, expect, it } from 'vitest'
import type { DealRequest } from '../../src/activation/connectors/connector.ts'
import { ConnectorError } from '../../src/activation/connectors/connector.ts'
import { createSandboxConnector } from '../../src/activation/connectors/sandbox.ts'
import { describeEachEngine } from '../helpers/db.ts'

const request = (activationId: number, buyerSeat = 'seat-s'): DealRequest => ({
  activationId,
  clientId: 1,
  dsp: 'the-trade-desk',
  buyerSeat,
  knownConnection: false,
  startDate: null,
  endDate: null,
  budget: null,
  targeting: { domains: ['example.com'], urls: ['https://example.com/a'], geo: null, formats: null, devices: null },
})

describeEachEngine('sandbox SSP connector', (getDb) => {
  const latency = { knownConnectionSeconds: 5, newConnectionSeconds: 30 }
  const t0 = new Date('2026-11-22T10:00:00Z')

  it('issues one deal per activation: repeated and concurrent calls get the first deal back', async () => {
    const db = getDb().db
    const ssp = createSandboxConnector(db, latency)
    const [x, y] = await Promise.all([ssp.createDeal(request(101), t0), ssp.createDeal(request(101), t0)])
    const later = await ssp.createDeal(request(101), new Date(t0.getTime() + 3_600_000))
    expect(y.dealId).toBe(x.dealId)
    expect(later).toEqual(x)
    // The sync latency runs from when the SSP first created the deal.
    expect(later.readyAt).toEqual(new Date(t0.getTime() + 30_000))
    const other = await ssp.createDeal(request(102), t0)
    expect(other.dealId).not.toBe(x.dealId)
    const { rows } = await db.query<{ activation_id: number; n: number }>(
      'SELECT activation_id, count(*)::int AS n FROM sandbox_deals WHERE activation_id IN (101, 102) GROUP BY activation_id ORDER BY 1',
    )
    expect(rows).toEqual([
      { activation_id: 101, n: 1 },
      { activation_id: 102, n: 1 },
    ])
  })

  it('a new connector instance (another process) also finds the deal already issued', async () => {
    const db = getDb().db
    const first = await createSandboxConnector(db, latency).createDeal(request(103), t0)
    const again = await createSandboxConnector(db, latency).createDeal(request(103), t0)
    expect(again.dealId).toBe(first.dealId)
  })

  describe('test seats', () => {
    it('sandbox-unavailable fails every attempt with a retryable error and issues nothing', async () => {
      const ssp = createSandboxConnector(getDb().db, latency)
      for (let attempt = 1; attempt <= 7; attempt++) {
        const err = await ssp.createDeal(request(104, 'sandbox-unavailable-x'), t0).catch((e: unknown) => e)
        expect(err).toBeInstanceOf(ConnectorError)
        expect(err).toMatchObject({ retryable: true, message: 'sandbox SSP is temporarily unavailable (HTTP 503)' })
      }
      expect((await getDb().db.query('SELECT 1 FROM sandbox_deals WHERE activation_id = 104')).rows).toHaveLength(0)
    })

    it('sandbox-flaky fails twice, then issues', async () => {
      const ssp = createSandboxConnector(getDb().db, latency)
      const outcomes: string[] = []
      for (let attempt = 1; attempt <= 3; attempt++) {
        outcomes.push(
          await ssp.createDeal(request(105, 'sandbox-flaky-x'), t0).then(
            () => 'issued',
            (e: ConnectorError) => `retryable=${e.retryable}`,
          ),
        )
      }
      expect(outcomes).toEqual(['retryable=true', 'retryable=true', 'issued'])
    })

    it('sandbox-reject is refused permanently', async () => {
      const err = await createSandboxConnector(getDb().db, latency)
        .createDeal(request(106, 'sandbox-reject-x'), t0)
        .catch((e: unknown) => e)
      expect(err).toMatchObject({ retryable: false })
      expect((err as Error).message).toMatch(/rejected the deal: buyer seat sandbox-reject-x is not known on the-trade-desk/)
    })
  })
})
