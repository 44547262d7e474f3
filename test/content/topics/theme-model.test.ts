import { describe, expect, it } from 'vitest'
import { embedPage, embedQuery, themeSimilarity } from '../../../src/content/classify/index.ts'
import { featureCounts, topicTokens } from '../../../src/content/topics/features.ts'
import { themeModel, themeName, themesOf } from '../../../src/content/topics/theme-model.ts'
import { circuitPage, laptopPage } from './theme-pages.ts'

const top = (themes: [number, number][]): string => themeName((themes.slice().sort((a, b) => b[1] - a[1])[0] as [number, number])[0])

describe('themesOf', () => {
  it('names the corpora’s own classes, finer than tier 1', () => {
    expect(themeModel().names).toEqual(expect.arrayContaining(['20news:sci.electronics', '20news:comp.sys.mac.hardware', 'huffpost:TRAVEL', 'dbpedia:Album']))
    expect(top(themesOf(featureCounts(topicTokens({ title: circuitPage.title, body: circuitPage.text }))))).toBe('sci.electronics (20 Newsgroups)')
    expect(top(themesOf(featureCounts(topicTokens({ title: 'electronics hobbyists building circuits' }))))).toBe('sci.electronics (20 Newsgroups)')
  })

  it('keeps a few likely themes as a sorted, bounded distribution, and none for words it does not know', () => {
    const themes = themesOf(featureCounts(topicTokens({ title: laptopPage.title, body: laptopPage.text })))
    expect(themes.length).toBeGreaterThan(0)
    expect(themes.length).toBeLessThanOrEqual(8)
    expect(themes.map(([t]) => t)).toEqual([...themes.map(([t]) => t)].sort((a, b) => a - b))
    for (const [, p] of themes) expect(p).toBeGreaterThanOrEqual(0.02)
    expect(themes.reduce((s, [, p]) => s + p, 0)).toBeLessThanOrEqual(1.0001)
    expect(themesOf(featureCounts(topicTokens({ title: 'qwzx vbnmq' })))).toEqual([])
  })
})

describe('themeSimilarity', () => {
  it('tells two pages of one tier-1 topic apart where the taxonomy does not', () => {
    const prompt = embedQuery('electronics hobbyists building circuits')
    const onTheme = themeSimilarity(prompt, embedPage(circuitPage))
    const sameTopic = themeSimilarity(prompt, embedPage(laptopPage))
    expect(onTheme).toBeGreaterThan(0.5)
    expect(sameTopic).toBeLessThan(onTheme / 2)
  })

  it('is 0 for an embedding without themes (a page classified before they existed, or not in English)', () => {
    const { themes: _, ...old } = embedPage(circuitPage)
    expect(themeSimilarity(embedQuery('electronics hobbyists building circuits'), old)).toBe(0)
    expect(
      embedPage({
        title: 'Le marché de Noël',
        text: 'Le marché de Noël ouvre ses portes samedi sur la place de la mairie, avec des chalets, du vin chaud et des artisans.',
        language: 'fr',
      }).themes,
    ).toBeUndefined()
  })
})
