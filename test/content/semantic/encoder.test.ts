// The sentence encoder in its own process (the real model, shipped in its npm package): texts about the
// same thing come out closer than texts about different things; failures reject, never hang.
import { afterAll, describe, expect, it } from 'vitest'
import { childProcessEncoder } from '../../../src/content/semantic/encoder.ts'
import { SEMANTIC_DIMENSIONS, semanticCosine } from '../../../src/content/semantic/vectors.ts'

describe('sentence encoder', () => {
  const encoder = childProcessEncoder({ timeoutMs: 60_000 })
  afterAll(() => encoder.close())

  it('reads meaning the words do not share', async () => {
    const [gamers, console_, court] = await encoder.encode([
      'gamers following new video games and consoles',
      'Xbox One X review: a machine that keeps up with a high-end PC',
      'The supreme court made it harder to sue your employer',
    ])
    expect(gamers).toHaveLength(SEMANTIC_DIMENSIONS)
    expect(semanticCosine(gamers!, console_!)).toBeGreaterThan(semanticCosine(gamers!, court!) + 0.2)
  })

  it('answers an empty request at once, and keeps the order of many texts', async () => {
    expect(await encoder.encode([])).toEqual([])
    const texts = Array.from({ length: 40 }, (_, i) => (i % 2 ? 'a recipe for bread and cakes' : 'the election results in parliament'))
    const out = await encoder.encode(texts)
    expect(out).toHaveLength(40)
    expect(semanticCosine(out[0]!, out[2]!)).toBeGreaterThan(0.99)
    expect(semanticCosine(out[0]!, out[1]!)).toBeLessThan(0.5)
  })

  it('rejects when it cannot answer in time, and starts afresh on the next request', async () => {
    const impatient = childProcessEncoder({ timeoutMs: 1 })
    await expect(impatient.encode(['too slow to load the model in a millisecond'])).rejects.toThrow(/no answer in 1 ms/)
    await impatient.close()
    // The closed encoder starts its process again when asked.
    const again = childProcessEncoder({ timeoutMs: 60_000 })
    await again.close()
    expect((await again.encode(['back again']))[0]).toHaveLength(SEMANTIC_DIMENSIONS)
    await again.close()
  })

  it('rejects the requests in flight when it is closed', async () => {
    const closing = childProcessEncoder({ timeoutMs: 60_000 })
    const pending = expect(closing.encode(['a text the encoder will not finish'])).rejects.toThrow(/closed|stopped/)
    await closing.close()
    await pending
  })
})
