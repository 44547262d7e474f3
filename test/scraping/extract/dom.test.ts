import { describe, expect, it } from 'vitest'

import { classFlags, ElementNode, markerOf } from '../../../src/scraping/extract/dom.ts'

const el = (attrs: Record<string, string>) => new ElementNode('div', attrs)

describe('markerOf', () => {
  it('joins class and id, and is empty for an element with neither', () => {
    expect(markerOf(el({ class: 'post-date', id: 'top' }))).toBe('post-date top')
    expect(markerOf(el({ id: 'top' }))).toBe(' top')
    expect(markerOf(el({}))).toBe('')
  })
})

describe('classFlags', () => {
  it('ORs the flags of the class and the id, testing each value once', () => {
    const seen: string[] = []
    const flags = classFlags((v) => {
      seen.push(v)
      return (v.includes('date') ? 1 : 0) | (v.includes('comment') ? 2 : 0)
    })
    expect(flags(el({ class: 'post-date', id: 'comments' }))).toBe(3)
    expect(flags(el({ class: 'post-date' }))).toBe(1)
    expect(flags(el({ class: '', id: 'nav' }))).toBe(0)
    expect(flags(el({}))).toBe(0)
    expect(seen).toEqual(['post-date', 'comments', 'nav'])
  })

  it('forgets everything when full, and still answers right', () => {
    let tests = 0
    const flags = classFlags((v) => {
      tests++
      return v.length
    }, 2)
    expect(flags(el({ class: 'a' }))).toBe(1)
    expect(flags(el({ class: 'bb' }))).toBe(2)
    expect(flags(el({ class: 'ccc' }))).toBe(3)
    expect(flags(el({ class: 'a' }))).toBe(1)
    expect(tests).toBe(4)
  })
})
