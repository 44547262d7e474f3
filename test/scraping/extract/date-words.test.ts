// Date labels: the verb-final publication statement read after a date.
import { describe, expect, it } from 'vitest'
import { PUBLISHED_AFTER } from '../../../src/scraping/extract/date-words.ts'

describe('PUBLISHED_AFTER', () => {
  it('reads the verb that closes a German or Dutch publication statement, past a time or a name', () => {
    expect(PUBLISHED_AFTER.test(' um 14:48 Uhr veröffentlicht und unter News abgelegt')).toBe(true)
    expect(PUBLISHED_AFTER.test(' um 14:48 von Heiner geschrieben und unter dem Stichwort')).toBe(true)
    expect(PUBLISHED_AFTER.test(' um 09.07 Uhr gespeichert unter Kommunizieren')).toBe(true)
    expect(PUBLISHED_AFTER.test(' gepubliceerd')).toBe(true)
  })

  it('does not cross a sentence end, read far on, or take a longer word', () => {
    expect(PUBLISHED_AFTER.test('. Die Studie wurde veröffentlicht')).toBe(false)
    expect(PUBLISHED_AFTER.test(' hat der Verband nach langer Beratung den Bericht veröffentlicht')).toBe(false)
    expect(PUBLISHED_AFTER.test(' erstellten Listen')).toBe(false)
  })
})
