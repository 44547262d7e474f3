// With the sentence encoder on, a URL whose meaning is close to the prompt's says so among its reasons
// (`meaning`), in JSON and CSV: the page's vector is read by index.semantic, the prompt's at build time.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { semanticBatch } from '../../src/scraping/index/semantic-vectors.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { articleHtml, indexHtml } from './fixtures.ts'
import type { CurationTestApp } from './helpers.ts'
import { createCurationApp } from './helpers.ts'

describeEachEngine('meaning among a URL’s reasons', (getDb) => {
  let t: CurationTestApp
  let a: { headers: Record<string, string>; clientId: number }
  beforeAll(async () => {
    t = await createCurationApp(getDb().db, {}, { semantic: true })
    a = await t.client('Acme')
  })
  afterAll(() => t.close())

  it('names the cosine of prompt and page when it raised the score, and not for a page without a vector', async () => {
    const db = getDb().db
    const review = articleHtml({
      title: 'The open-world sequel was worth the wait',
      paragraphs: [
        'Dozens of hours of side quests, a sprawling map and boss fights that test your reflexes; the online co-op mode was unstable at launch but a patch has fixed most crashes. Console and PC players get the same content.',
        'The story picks up where the first game left off, and the new companions have more to say. Expect to lose whole weekends to it: the crafting system alone hides hours of play for gamers who like to tinker.',
        'Our verdict after forty hours: the best of the series so far, if you can forgive a slow opening chapter and some clumsy menus. The video game runs smoothly on both consoles we tried.',
        'Multiplayer servers held up well in our second week, and the developers have promised new maps, a photo mode and harder difficulty settings in the first free update this winter.',
      ],
    })
    const racer = articleHtml({
      title: 'Hands-on with the new racing game',
      paragraphs: [
        'Forty licensed cars, twelve tracks and a career mode that starts you in hatchbacks: the racing sim we played this week on console feels closer to the arcade games of old than its serious menus suggest.',
        'Steering with a gamepad is forgiving, and a wheel brings out the weight of each car. Split-screen is back for local play, and online lobbies filled in seconds on launch night for the gamers we raced.',
        'Loading times are short on the new consoles, the frame rate holds at sixty in every mode we tried, and the soundtrack can be switched off for the engines alone. Expect a review when we finish the career.',
        'Pre-orders come with three extra cars; a season pass adds tracks through next year. The studio says the game will get a free weather update in the spring.',
      ],
    })
    await indexHtml(db, 'https://www.games1.example.com/review/sequel', review)
    while ((await semanticBatch(db, t.ctx.encoder!, (fn) => db.transaction(fn))) > 0);
    // Indexed after the job ran: no vector yet.
    await indexHtml(db, 'https://www.games2.example.com/preview/racer', racer)

    const seg = await t.build(a.headers, { prompt: 'gamers following new video games and consoles' })
    const urls = (await t.urls(a.headers, seg.id)) as unknown as { url: string; reasons: { meaning?: { similarity: number } } }[]
    const read = urls.find((u) => u.url.includes('games1'))
    const unread = urls.find((u) => u.url.includes('games2'))
    expect(read?.reasons.meaning?.similarity).toBeGreaterThan(0.24)
    expect(unread).toBeDefined()
    expect(unread?.reasons.meaning).toBeUndefined()
    const csv = await t.app.inject({ method: 'GET', url: `/v1/curation/segment-requests/${seg.id}/urls`, headers: { ...a.headers, accept: 'text/csv' } })
    const line = csv.body.split('\r\n').find((l) => l.includes('games1'))
    expect(line).toMatch(/meaning: 0\.\d+/)
  })
})
