import { afterAll, beforeAll, expect, it } from 'vitest'

import { json } from '../helpers/app.ts'
import { describeEachEngine } from '../helpers/db.ts'
import type { CurationTestApp } from './helpers.ts'
import { createCurationApp } from './helpers.ts'

const path = '/v1/curation/prompt-interpretations'

interface Reading {
  prompt: string
  topical: boolean
  message: string | null
  interpretation: {
    categories: { name: string; weight: number }[]
    terms: string[]
    audience: string[]
    geo: string[]
    blocks: { categories: { name: string }[]; terms: string[] }
    ignored: { word: string; why: string }[]
  }
}

describeEachEngine('prompt interpretations API', (getDb) => {
  let t: CurationTestApp
  let a: { headers: Record<string, string>; clientId: number }
  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    a = await t.client('Acme')
  })
  afterAll(() => t.close())

  it('reads a prompt as a segment request would, and stores nothing', async () => {
    const prompt = '  home cooking recipes for moms in Germany, not politics  '
    const res = await t.post(a.headers, path, { prompt })
    expect(res.statusCode, res.body).toBe(200)
    const body = json<Reading>(res)
    expect(body).toMatchObject({ prompt: prompt.trim(), topical: true, message: null })
    expect(body.interpretation.categories[0]?.name).toBe('Food & Drink')
    expect(body.interpretation).toMatchObject({ terms: ['home', 'cooking', 'recipes'], audience: ['moms'], geo: ['DE'] })
    expect(body.interpretation.blocks.categories.map((c) => c.name)).toEqual(['Politics'])
    expect(body.interpretation.ignored).toContainEqual({ word: 'germany', why: 'geography' })
    expect(json<unknown[]>(await t.get(a.headers, '/v1/curation/segment-requests'))).toEqual([])

    // The segment request made from the same prompt records the same reading.
    const seg = await t.post(a.headers, '/v1/curation/segment-requests', { prompt })
    expect(json<{ interpretation: unknown }>(seg).interpretation).toEqual(body.interpretation)
    const built = await t.waitBuilt(a.headers, json<{ id: number }>(seg).id)
    // The audience's place is named as set aside; a place the content is about is not (it was searched).
    expect(built.processing_warnings).toContainEqual({
      code: 'audience_not_targeted',
      message: expect.stringContaining('places (germany) did not select pages'),
    })
    const japan = json<{ id: number }>(await t.post(a.headers, '/v1/curation/segment-requests', { prompt: 'travel in Japan' }))
    const travel = await t.waitBuilt(a.headers, japan.id)
    expect((travel.processing_warnings ?? []).map((w) => w.code)).not.toContain('audience_not_targeted')
  })

  it('searches a place the content is about, and offers it as geo all the same', async () => {
    const body = json<Reading>(await t.post(a.headers, path, { prompt: 'travel in Japan' }))
    expect(body.interpretation).toMatchObject({ terms: ['travel', 'japan'], geo: ['JP'] })
    expect(body.interpretation.ignored.map((x) => x.word)).not.toContain('japan')
    const audience = json<Reading>(await t.post(a.headers, path, { prompt: 'moms in Japan who love travel' }))
    expect(audience.interpretation).toMatchObject({ terms: ['travel'], geo: ['JP'] })
    expect(audience.interpretation.ignored).toContainEqual({ word: 'japan', why: 'geography' })
  })

  it.each([
    ['only audience words', 'high income moms aged 25-54', /"moms" \(audience\)/],
    ['only emoji', '🎉🔥', /"🎉" \(not a word\)/],
    ['only a place', 'people in Germany', /"germany" \(geography\)/],
  ])('a prompt with %s: 200, not topical, the words named with why', async (_name, prompt, named) => {
    const res = await t.post(a.headers, path, { prompt })
    expect(res.statusCode, res.body).toBe(200)
    const body = json<Reading>(res)
    expect(body.topical).toBe(false)
    expect(body.message).toMatch(/^the prompt names no content topic: found /)
    expect(body.message).toMatch(named)
    // A segment request with the prompt alone is refused with the same words.
    const refused = await t.post(a.headers, '/v1/curation/segment-requests', { prompt })
    expect(refused.statusCode).toBe(422)
    expect(json<{ message: string }>(refused).message).toMatch(named)
  })

  it('reads a prompt at the maximum length, and markup as words', async () => {
    const long = `sports ${'results and transfer news for football fans, '.repeat(44)}`.slice(0, 2000)
    const res = await t.post(a.headers, path, { prompt: long })
    expect(res.statusCode, res.body).toBe(200)
    expect(json<Reading>(res).interpretation.categories[0]?.name).toBe('Sports')
    const markup = json<Reading>(await t.post(a.headers, path, { prompt: '<script>alert(1)</script> baking bread' }))
    expect(markup.prompt).toBe('<script>alert(1)</script> baking bread')
    expect(markup.interpretation.terms).toEqual(expect.arrayContaining(['baking', 'bread']))
  })

  it.each([
    ['no prompt', 400, 'invalid_request', {}],
    ['a blank prompt', 400, 'invalid_request', { prompt: '   ' }],
    ['a prompt of the wrong type', 400, 'invalid_request', { prompt: 5 }],
    ['a prompt too long', 422, 'validation_failed', { prompt: 'x'.repeat(2001) }],
    ['an unknown field', 400, 'invalid_request', { prompt: 'cooking', example_urls: [] }],
    ['an array body', 400, 'invalid_request', ['cooking']],
  ])('%s → %i %s', async (_name, status, code, payload) => {
    const res = await t.post(a.headers, path, payload)
    expect(res.statusCode, res.body).toBe(status)
    const body = json<{ error: string; message: string }>(res)
    expect(body.error).toBe(code)
    expect(body.message.length).toBeGreaterThan(5)
  })

  it('refuses a body that is not JSON, broken JSON and a request without a key', async () => {
    const text = await t.app.inject({ method: 'POST', url: path, headers: { ...a.headers, 'content-type': 'text/plain' }, payload: 'cooking' })
    expect(text.statusCode).toBe(415)
    expect(json<{ error: string }>(text).error).toBeTruthy()
    const broken = await t.app.inject({ method: 'POST', url: path, headers: { ...a.headers, 'content-type': 'application/json' }, payload: '{"prompt": ' })
    expect(broken.statusCode).toBe(400)
    expect(json<{ error: string }>(broken).error).toBe('invalid_json')
    const anonymous = await t.app.inject({ method: 'POST', url: path, payload: { prompt: 'cooking' } })
    expect(anonymous.statusCode).toBe(401)
  })
})
