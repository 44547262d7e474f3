import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { json } from '../helpers/app.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { articleHtml, indexHtml, indexTopic } from './fixtures.ts'
import type { CurationTestApp, SegmentRecord } from './helpers.ts'
import { createCurationApp } from './helpers.ts'

const path = '/v1/curation/segment-requests'

describeEachEngine('segment requests API', (getDb) => {
  let t: CurationTestApp
  let a: { headers: Record<string, string>; clientId: number }
  let b: { headers: Record<string, string>; clientId: number }
  let built: SegmentRecord
  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    a = await t.client('Acme')
    b = await t.client('Other')
    await indexTopic(
      getDb().db,
      'sports',
      Array.from({ length: 12 }, (_, i) => `https://www.sports${i}.example.com/match/${i}`),
      100,
    )
    await indexTopic(
      getDb().db,
      'cooking',
      Array.from({ length: 6 }, (_, i) => `https://www.recipes${i}.example.com/dish/${i}`),
      200,
    )
    built = await t.build(a.headers, { name: 'Sports fans', prompt: 'sports fans following games, results and transfer news' })
  })
  afterAll(() => t.close())

  it('creates a request: 201 with the spec record, nulls where the spec shows them', async () => {
    const res = await t.post(a.headers, path, {
      name: 'Soccer',
      prompt: 'soccer fans',
      example_urls: ['https://www.sports1.example.com/match/1'],
      taxonomy_id: 533,
      block_tlds: ['Spam.Example', '*.bad.example'],
      block_keywords: ['  betting  odds '],
      extra_hops_count: 1,
    })
    expect(res.statusCode).toBe(201)
    const body = json(res)
    expect(body).toMatchObject({
      client_id: null,
      extra_hops_count: null,
      name: 'Soccer',
      prompt: 'soccer fans',
      taxonomy_id: 533,
      level1_name: 'Sports',
      level2_name: 'Soccer',
      level3_name: null,
      example_urls: ['https://www.sports1.example.com/match/1'],
      block_tlds: ['spam.example', 'bad.example'],
      block_keywords: ['betting odds'],
      deleted: false,
      status: 'pending',
      processed_date: null,
      processing_errors: null,
      processing_warnings: null,
      created_date: '2026-11-22T10:00:00.000Z',
    })
    expect(typeof body.id).toBe('number')
    // GET shows the stored values.
    const got = json(await t.get(a.headers, `${path}/${body.id}`))
    expect(got).toMatchObject({ id: body.id, client_id: a.clientId, extra_hops_count: 1 })
    await t.waitBuilt(a.headers, body.id as number)
  })

  it('resolves level names to the taxonomy id and back', async () => {
    const res = await t.post(a.headers, path, { prompt: 'football', level1_name: 'sports', level2_name: 'SOCCER' })
    expect(json(res)).toMatchObject({ taxonomy_id: 533, level1_name: 'Sports', level2_name: 'Soccer' })
    const id = json<{ id: number }>(res).id
    await t.waitBuilt(a.headers, id)
  })

  it('builds: pending → complete with processed_date, URLs in rank order, derived taxonomy', async () => {
    expect(built.status).toBe('complete')
    expect(built.processed_date).toBe('2026-11-22T10:00:00.000Z')
    expect(built.processing_errors).toBeNull()
    expect(built.taxonomy_id).toBe(483)
    expect(built.level1_name).toBe('Sports')
    const urls = await t.urls(a.headers, built.id)
    expect(built.url_count).toBe(urls.length)
    expect(urls.length).toBeGreaterThanOrEqual(12)
    expect(urls.every((u) => u.url.includes('sports'))).toBe(true)
    expect(urls.map((u) => u.rank)).toEqual(urls.map((_u, i) => i + 1))
    const scores = urls.map((u) => u.score)
    expect([...scores].sort((x, y) => y - x)).toEqual(scores)
    expect(urls[0]).toMatchObject({ tld: expect.stringMatching(/example\.com$/), taxonomy_id: expect.any(Number), source: 'prompt', level1_name: 'Sports' })
  })

  it('returns how the prompt was read: topics, terms, audience words', async () => {
    expect(built.interpretation).toMatchObject({
      categories: expect.arrayContaining([expect.objectContaining({ taxonomy_id: 483, name: 'Sports' })]),
      audience: expect.arrayContaining(['fans', 'following']),
      geo: [],
    })
    expect(built.interpretation?.terms).toEqual(expect.arrayContaining(['sports', 'games']))
  })

  it('gives every URL its reasons: matched categories with the page score, and prompt words', async () => {
    const urls = json<{ urls: { reasons: { categories?: { name: string; score: number }[]; terms?: string[] } }[] }>(
      await t.get(a.headers, `${path}/${built.id}/urls?limit=3`),
    )
    for (const u of urls.urls) {
      expect(u.reasons.categories?.[0]?.name).toBe('Sports')
      expect(u.reasons.categories?.[0]?.score).toBeGreaterThan(0)
    }
    const csv = await t.app.inject({ method: 'GET', url: `${path}/${built.id}/urls?limit=1`, headers: { ...a.headers, accept: 'text/csv' } })
    expect(csv.body.split('\r\n')[1]).toMatch(/categories: Sports [\d.]+/)
  })

  it('names the theme a URL shares with the prompt when it moved the score', async () => {
    const paragraphs = [
      'Wire the resistor and the capacitor to pins 6 and 7 of the 555 timer, then power the chip from a 9 volt battery through a diode. The LED on the output pin blinks at a rate the resistor values set.',
      'An oscilloscope on the output shows the square wave; a potentiometer in place of the second resistor lets you tune the frequency. Solder the parts to a perfboard once the breadboard circuit works.',
      'Check the polarity of the electrolytic capacitor and of the LED, keep the leads short, and add a 100 nF decoupling capacitor across the supply pins close to the chip to keep the timing steady.',
      'A multimeter helps to find a bad joint: measure the voltage on each pin against ground with the circuit powered, and the resistance of each connection with the battery out.',
    ]
    await indexHtml(getDb().db, 'https://www.circuits.example.com/build/555', articleHtml({ title: 'Building a 555 timer circuit', paragraphs }))
    const seg = await t.build(a.headers, { prompt: 'electronics hobbyists building circuits' })
    const urls = await t.urls(a.headers, seg.id)
    expect(urls[0]?.url).toBe('https://www.circuits.example.com/build/555')
    expect((urls[0] as { reasons?: { theme?: unknown } }).reasons?.theme).toEqual({ name: 'sci.electronics (20 Newsgroups)', similarity: expect.any(Number) })
    const csv = await t.app.inject({ method: 'GET', url: `${path}/${seg.id}/urls?limit=1`, headers: { ...a.headers, accept: 'text/csv' } })
    expect(csv.body.split('\r\n')[1]).toMatch(/theme: sci\.electronics \(20 Newsgroups\) [\d.]+/)
  })

  it('reads geography and exclusions apart from the topic', async () => {
    const res = await t.post(a.headers, path, { prompt: 'moms aged 25-54 in Germany who love cooking, not politics' })
    expect(res.statusCode).toBe(201)
    const read = json<SegmentRecord>(res).interpretation
    expect(read?.geo).toEqual(['DE'])
    expect(read?.audience).toEqual(expect.arrayContaining(['moms', 'aged 25-54']))
    expect(read?.categories[0]?.name).toBe('Food & Drink')
    expect(read?.blocks.terms).toEqual(['politics'])
    expect(read?.blocks.categories.map((c) => c.name)).toEqual(['Politics'])
    await t.waitBuilt(a.headers, json<{ id: number }>(res).id)
  })

  it('narrows a prompt by its exclusion instead of blocking its own topic: car pages stay, the luxury-car page goes', async () => {
    const db = getDb().db
    await indexTopic(
      db,
      'autos',
      Array.from({ length: 6 }, (_, i) => `https://www.cars${i}.example.com/review/${i}`),
      300,
    )
    const luxury = 'https://www.prestige.example.com/review/supercar'
    await indexHtml(
      db,
      luxury,
      articleHtml({
        // Never the phrase "luxury cars", which would block it as a phrase: the category must.
        title: 'The luxury car of the year: the new Bentley reviewed',
        paragraphs: [
          'The luxury car market has a new benchmark. The Bentley is a luxury car in every detail, from the hand-stitched leather cabin to the walnut veneer.',
          'Rivals from Rolls-Royce and Maybach set the standard for a luxury car, and the Bentley matches them: a whisper-quiet twelve-cylinder engine and a chauffeur-grade rear seat.',
          'Buyers of a luxury car pay for craftsmanship. The Bentley takes four hundred hours to build by hand, and every luxury car leaves the factory with a bespoke paint colour.',
          'As a luxury car it has no equal this year: the most refined ride, the finest materials and the most exclusive badge on the road.',
        ].flatMap((p) => [p, p, p]), // long enough for the thin-content floor
      }),
    )
    const seg = await t.build(a.headers, { prompt: 'car buyers but no luxury cars' })
    expect(seg.status).toBe('complete')
    const urls = (await t.urls(a.headers, seg.id)).map((u) => u.url)
    // The car pages lead it (they had all been blocked, leaving sports and recipe pages).
    expect(new Set(urls.slice(0, 6))).toEqual(new Set(Array.from({ length: 6 }, (_, i) => `https://www.cars${i}.example.com/review/${i}`)))
    expect(urls).not.toContain(luxury)
    expect(seg.interpretation?.blocks.categories.map((c) => c.name)).toEqual(['Luxury Cars'])
    // Without the exclusion the page is among the first.
    const all = await t.build(a.headers, { prompt: 'car buyers' })
    expect((await t.urls(a.headers, all.id)).slice(0, 7).map((u) => u.url)).toContain(luxury)
  })

  it('reads a prompt in German with the German lists and finds German travel pages', async () => {
    const db = getDb().db
    const texts = [
      [
        'Der Urlaub in den Alpen beginnt mit einer Wanderung durch die Altstadt. Touristen finden hier Hotels, Ferienwohnungen und eine Unterkunft für jedes Budget.',
        'Tourismus ist hier zu Hause. Vom Flughafen sind es zwanzig Minuten bis zum Hotel, und die Reisen in die Berge sind im Preis enthalten.',
        'Im Winter kommen die Skifahrer, im Sommer die Wanderer: Die Gemeinde zählt jedes Jahr mehr Übernachtungen, und die Gastgeber rechnen mit einem neuen Rekord.',
        'Wer mit der Bahn anreist, fährt bis ins Tal und nimmt dann den Bus. Die Gästekarte gilt für alle Bergbahnen und Museen der Region.',
      ],
      [
        'Die Reise führt an die Ostsee: Urlauber lieben den Strand, die Sehenswürdigkeiten der Küste, den Ausflug mit dem Schiff und die Kreuzfahrt nach Skandinavien.',
        'Für den nächsten Urlaub empfehlen wir eine Ferienwohnung direkt am Meer. Die Insel ist autofrei, Fahrräder gibt es am Hafen zu mieten.',
        'Abends laden die Fischrestaurants an der Promenade ein, und der Leuchtturm ist bis zum Sonnenuntergang geöffnet.',
        'Die beste Reisezeit ist der Spätsommer: Das Wasser ist warm, die Touristen der Ferienzeit sind abgereist und die Preise sinken.',
      ],
    ]
    const pages = texts.map((_, i) => `https://www.reisen${i}.example.de/urlaub/${i}`)
    for (const [i, url] of pages.entries()) {
      const paragraphs = texts[i]!.flatMap((p) => [p, `${p.split(':')[0]}.`]) // long enough for the thin-content floor
      await indexHtml(db, url, articleHtml({ title: `Urlaub und Reisen: die schönsten Ziele (${i})`, paragraphs }).replace('lang="en"', 'lang="de"'))
    }
    const seg = await t.build(a.headers, { prompt: 'Reisen und Urlaub' })
    expect(seg.interpretation).toMatchObject({ language: 'de', categories: [expect.objectContaining({ name: 'Travel' })] })
    expect(seg.interpretation?.terms).toEqual(['reisen', 'urlaub']) // not "und"
    const urls = (await t.urls(a.headers, seg.id)).map((u) => u.url)
    expect(new Set(urls.slice(0, 2))).toEqual(new Set(pages))
  })

  it.each([
    ['only audience words', 'high income moms aged 25-54', /"moms" \(audience\)/],
    ['only common words', 'the and of with', /"the" \(common word\)/],
    ['only emoji', '🎉🔥', /"🎉" \(not a word\)/],
    ['only a place', 'people in Germany', /"germany" \(geography\)/],
  ])('a prompt with %s → 422 naming the words and why', async (_name, prompt, named) => {
    const res = await t.post(a.headers, path, { prompt })
    expect(res.statusCode, res.body).toBe(422)
    const body = json<{ error: string; message: string }>(res)
    expect(body.error).toBe('validation_failed')
    expect(body.message).toMatch(named)
  })

  it.each([
    ['at the maximum length', `sports ${'results and transfer news for football fans, '.repeat(44)}`.slice(0, 2000)],
    ['in another language', 'Fußballfans in Deutschland, die Spielberichte lesen'],
    ['made of names the model does not know', 'zorblatt quuxify'],
  ])('a prompt %s builds: complete, with a reason when nothing fits', async (_name, prompt) => {
    const seg = await t.build(a.headers, { prompt })
    expect(seg.status).toBe('complete')
    if (!seg.url_count) expect([...(seg.processing_errors ?? []), ...(seg.processing_warnings ?? [])].length).toBeGreaterThan(0)
  })

  it('pages through URLs with a stable order; CSV on Accept: text/csv', async () => {
    const all = await t.urls(a.headers, built.id)
    const first = json<{ total: number; urls: { url: string }[] }>(await t.get(a.headers, `${path}/${built.id}/urls?limit=5`))
    const second = json<{ total: number; urls: { url: string }[] }>(await t.get(a.headers, `${path}/${built.id}/urls?limit=5&offset=5`))
    expect(first.total).toBe(all.length)
    expect([...first.urls, ...second.urls].map((u) => u.url)).toEqual(all.slice(0, 10).map((u) => u.url))
    const past = json<{ urls: unknown[] }>(await t.get(a.headers, `${path}/${built.id}/urls?offset=100000`))
    expect(past.urls).toEqual([])

    const csv = await t.app.inject({ method: 'GET', url: `${path}/${built.id}/urls?limit=3`, headers: { ...a.headers, accept: 'text/csv' } })
    expect(csv.statusCode).toBe(200)
    expect(csv.headers['content-type']).toMatch(/^text\/csv/)
    expect(csv.headers['x-total-count']).toBe(String(all.length))
    const lines = csv.body.trim().split('\r\n')
    expect(lines[0]).toBe('rank,url,tld,score,taxonomy_id,level1_name,level2_name,level3_name,source,reasons')
    expect(lines).toHaveLength(4)
    expect(lines[1]!.startsWith(`1,${all[0]!.url},`)).toBe(true)
    const jsonWins = await t.app.inject({
      method: 'GET',
      url: `${path}/${built.id}/urls?limit=1`,
      headers: { ...a.headers, accept: 'application/json, text/csv;q=0.5' },
    })
    expect(jsonWins.headers['content-type']).toMatch(/json/)
  })

  it('lists only my segment requests, oldest first', async () => {
    const mine = json<SegmentRecord[]>(await t.get(a.headers, path))
    expect(mine.length).toBeGreaterThanOrEqual(3)
    expect(mine.every((s) => s.client_id === a.clientId)).toBe(true)
    expect(mine.map((s) => s.id)).toEqual([...mine.map((s) => s.id)].sort((x, y) => x - y))
    expect(json<unknown[]>(await t.get(b.headers, path))).toEqual([])
    expect(json<unknown[]>(await t.get(a.headers, `${path}?limit=1&offset=1`))).toHaveLength(1)
  })

  it('pages through the list of my segment requests', async () => {
    const all = json<SegmentRecord[]>(await t.get(a.headers, path))
    expect(all.length).toBeGreaterThanOrEqual(3)
    const pages: SegmentRecord[] = []
    for (let offset = 0; offset < all.length; offset += 2) pages.push(...json<SegmentRecord[]>(await t.get(a.headers, `${path}?limit=2&offset=${offset}`)))
    expect(pages.map((s) => s.id)).toEqual(all.map((s) => s.id))
    expect(json<unknown[]>(await t.get(a.headers, `${path}?offset=${all.length}`))).toEqual([])
    expect(json<unknown[]>(await t.get(a.headers, `${path}?limit=10000`))).toHaveLength(all.length)
  })

  it('pages through exclusions with totals by reason, and filters by reason', async () => {
    const blocked = ['sports0.example.com', 'sports1.example.com', 'sports2.example.com']
    const seg = await t.build(a.headers, { prompt: 'sports fans following games, results and transfer news', block_tlds: blocked, block_keywords: ['penalty'] })
    const all = json<{ total: number; by_reason: Record<string, number>; exclusions: { url: string; reason: string }[] }>(
      await t.get(a.headers, `${path}/${seg.id}/exclusions`),
    )
    expect(all.by_reason.blocked_tld).toBe(3)
    expect(all.total).toBe(Object.values(all.by_reason).reduce((x, y) => x + y, 0))
    expect(all.exclusions).toHaveLength(all.total)
    expect(all.total).toBeGreaterThan(3)
    const paged: { url: string }[] = []
    for (let offset = 0; offset < all.total; offset += 2) {
      const page = json<{ total: number; limit: number; offset: number; exclusions: { url: string }[] }>(
        await t.get(a.headers, `${path}/${seg.id}/exclusions?limit=2&offset=${offset}`),
      )
      expect(page).toMatchObject({ total: all.total, limit: 2, offset })
      paged.push(...page.exclusions)
    }
    expect(paged.map((e) => e.url)).toEqual(all.exclusions.map((e) => e.url))
    const past = json<{ total: number; exclusions: unknown[] }>(await t.get(a.headers, `${path}/${seg.id}/exclusions?offset=1000`))
    expect(past).toMatchObject({ total: all.total, exclusions: [] })
    const tlds = json<{ total: number; exclusions: { url: string; reason: string }[] }>(
      await t.get(a.headers, `${path}/${seg.id}/exclusions?reason=blocked_tld&limit=2`),
    )
    expect(tlds.total).toBe(3)
    expect(tlds.exclusions).toHaveLength(2)
    expect(tlds.exclusions.every((e) => e.reason === 'blocked_tld')).toBe(true)
    const none = json<{ total: number; exclusions: unknown[] }>(await t.get(a.headers, `${path}/${seg.id}/exclusions?reason=mfa`))
    expect(none).toMatchObject({ total: 0, exclusions: [] })
  })

  it("another client's segment is a 404 like a missing one, on every route", async () => {
    for (const suffix of ['', '/urls', '/exclusions']) {
      const theirs = await t.get(b.headers, `${path}/${built.id}${suffix}`)
      const missing = await t.get(b.headers, `${path}/999999${suffix}`)
      expect(theirs.statusCode).toBe(404)
      expect(theirs.body).toBe(missing.body)
      expect(json(theirs)).toEqual({ error: 'not_found', message: 'segment request not found' })
    }
  })

  it('replays a creation with the same Idempotency-Key', async () => {
    const h = { ...a.headers, 'idempotency-key': 'seg-1' }
    const one = await t.post(h, path, { prompt: 'recipes for dinner' })
    const two = await t.post(h, path, { prompt: 'recipes for dinner' })
    expect(two.headers['idempotent-replayed']).toBe('true')
    expect(json(two)).toEqual(json(one))
    await t.waitBuilt(a.headers, json<{ id: number }>(one).id)
  })

  describe('bad input', () => {
    const cases: [string, unknown, number, string, string?][] = [
      ['no prompt and no example URLs', { name: 'x' }, 400, 'invalid_request'],
      ['empty example list and blank prompt', { prompt: '   ', example_urls: [] }, 400, 'invalid_request'],
      ['prompt of the wrong type', { prompt: 5 }, 400, 'invalid_request'],
      ['example_urls not an array', { example_urls: 'https://a.example/' }, 400, 'invalid_request'],
      ['a malformed example URL', { example_urls: ['https://ok.example/', 'not a url'] }, 422, 'validation_failed', 'body.example_urls.1'],
      ['an ftp example URL', { example_urls: ['ftp://x.example/'] }, 422, 'validation_failed', 'body.example_urls.0'],
      ['too many example URLs', { example_urls: Array.from({ length: 101 }, (_, i) => `https://x.example/${i}`) }, 422, 'validation_failed'],
      ['unknown taxonomy id', { prompt: 'x', taxonomy_id: 424242 }, 422, 'validation_failed', 'body.taxonomy_id'],
      ['taxonomy id of the wrong type', { prompt: 'x', taxonomy_id: 'sports' }, 400, 'invalid_request'],
      ['taxonomy id zero', { prompt: 'x', taxonomy_id: 0 }, 422, 'validation_failed'],
      ['unknown level names', { prompt: 'x', level1_name: 'Sports', level2_name: 'Quidditch' }, 422, 'validation_failed', 'body.level2_name'],
      ['level2 without level1', { prompt: 'x', level2_name: 'Soccer' }, 422, 'validation_failed'],
      ['taxonomy id and names disagree', { prompt: 'x', taxonomy_id: 483, level1_name: 'Travel' }, 422, 'validation_failed', 'body.taxonomy_id'],
      ['a malformed block_tld', { prompt: 'x', block_tlds: ['good.example', 'bad domain'] }, 422, 'validation_failed', 'body.block_tlds.1'],
      ['too many block_tlds', { prompt: 'x', block_tlds: Array.from({ length: 1001 }, (_, i) => `d${i}.example`) }, 422, 'validation_failed'],
      ['a keyword with nothing to match', { prompt: 'x', block_keywords: ['ok', '!!!'] }, 422, 'validation_failed', 'body.block_keywords.1'],
      ['extra_hops_count out of range', { prompt: 'x', extra_hops_count: 3 }, 422, 'validation_failed'],
      ['extra_hops_count not an integer', { prompt: 'x', extra_hops_count: 1.5 }, 400, 'invalid_request'],
      ['a prompt too long', { prompt: 'x'.repeat(2001) }, 422, 'validation_failed'],
      ['an array body', [1, 2], 400, 'invalid_request'],
    ]
    for (const [name, payload, status, code, field] of cases) {
      it(`${name} → ${status} ${code}`, async () => {
        const res = await t.post(a.headers, path, payload)
        expect(res.statusCode, res.body).toBe(status)
        const body = json<{ error: string; message: string; details?: { path: string }[] }>(res)
        expect(body.error).toBe(code)
        expect(body.message.length).toBeGreaterThan(5)
        if (field) expect(body.details?.map((d) => d.path)).toContain(field)
      })
    }

    it('names the index of the bad URL in the message', async () => {
      const res = await t.post(a.headers, path, { example_urls: ['https://ok.example/', 'https://ok.example/2', 'javascript:alert(1)'] })
      expect(json<{ message: string }>(res).message).toContain('index 2')
    })

    it('rejects bad ids and paging on the GET routes', async () => {
      for (const [url, status] of [
        [`${path}/abc`, 400],
        [`${path}/0`, 422],
        [`${path}/1.5`, 400],
        [`${path}/${built.id}/urls?limit=0`, 422],
        [`${path}/${built.id}/urls?limit=10001`, 422],
        [`${path}/${built.id}/urls?offset=-1`, 422],
        [`${path}/${built.id}/urls?limit=abc`, 400],
        [`${path}/${built.id}/exclusions?reason=bogus`, 422],
        [`${path}?limit=0`, 422],
        [`${path}?limit=10001`, 422],
        [`${path}?offset=-1`, 422],
        [`${path}?limit=abc`, 400],
        [`${path}?offset=1.5`, 400],
        [`${path}/${built.id}/exclusions?limit=0`, 422],
        [`${path}/${built.id}/exclusions?limit=10001`, 422],
        [`${path}/${built.id}/exclusions?offset=-1`, 422],
        [`${path}/${built.id}/exclusions?limit=abc`, 400],
        [`${path}/${built.id}/exclusions?offset=x`, 400],
        [`${path}/${built.id}/exclusions?reason=`, 422],
        [`${path}/abc/exclusions`, 400],
        [`${path}/0/exclusions`, 422],
      ] as const) {
        const res = await t.get(a.headers, url)
        expect(res.statusCode, url).toBe(status)
        expect(json(res).error, url).toBe(status === 400 ? 'invalid_request' : 'validation_failed')
      }
    })

    it('needs an API key', async () => {
      expect((await t.get({}, path)).statusCode).toBe(401)
      expect((await t.post({}, path, { prompt: 'x' })).statusCode).toBe(401)
    })
  })
})
