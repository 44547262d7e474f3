// Date labels: the verb-final publication statement read after a date.
import { describe, expect, it } from 'vitest'
import { COMMENT_AFTER, EMBED_BEFORE, PUBLISHED_AFTER, READ_MORE_BEFORE } from '../../../src/scraping/extract/date-words.ts'

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

describe('EMBED_BEFORE and COMMENT_AFTER', () => {
  it("read a social embed's attribution before a date", () => {
    expect(EMBED_BEFORE.test('A post shared by Spice Girls (@spicegirls) on ')).toBe(true)
    expect(EMBED_BEFORE.test('like a hammer. pic.twitter.com/x — Jane Doe (@janedoe) ')).toBe(true)
    expect(EMBED_BEFORE.test('Posted by Jane Doe on ')).toBe(false)
    expect(EMBED_BEFORE.test('mail us (at) ')).toBe(false)
  })

  it("read a comment's signature after a date, past its time", () => {
    expect(COMMENT_AFTER.test(' at 4:36 am said: I agree')).toBe(true)
    expect(COMMENT_AFTER.test(' um 10:12 Uhr sagte: Danke')).toBe(true)
    expect(COMMENT_AFTER.test(', à 15h02 a dit : merci')).toBe(true)
    expect(COMMENT_AFTER.test(' says: great post')).toBe(true)
    expect(COMMENT_AFTER.test(' the minister said the plan')).toBe(false)
    expect(COMMENT_AFTER.test(' at 4:36 am. The council said: no')).toBe(false)
  })
})

describe('READ_MORE_BEFORE', () => {
  it('reads a teaser\'s "read more" link right before a date, in several languages', () => {
    expect(READ_MORE_BEFORE.test('Ein Speicher rechnet sich. Weiterlesen » ')).toBe(true)
    expect(READ_MORE_BEFORE.test('Read more → ')).toBe(true)
    expect(READ_MORE_BEFORE.test('… lire la suite ')).toBe(true)
    expect(READ_MORE_BEFORE.test('Read more about it in our report from ')).toBe(false)
  })
})
