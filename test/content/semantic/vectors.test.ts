// Stored sentence vectors: signed bytes scaled to ±127, their cosine, and the text a page is read from.
import { describe, expect, it } from 'vitest'
import { quantize, SEMANTIC_DIMENSIONS, semanticCosine, semanticInput, vectorOf } from '../../../src/content/semantic/vectors.ts'

describe('sentence vectors', () => {
  it('keeps the cosine of two vectors to about 0.01 when stored as bytes', () => {
    const a = Array.from({ length: SEMANTIC_DIMENSIONS }, (_, i) => Math.sin(i * 0.37) * 0.05)
    const b = Array.from({ length: SEMANTIC_DIMENSIONS }, (_, i) => Math.sin(i * 0.37 + 0.6) * 0.08)
    let dot = 0
    let na = 0
    let nb = 0
    for (let i = 0; i < a.length; i++) {
      dot += a[i]! * b[i]!
      na += a[i]! ** 2
      nb += b[i]! ** 2
    }
    const exact = dot / Math.sqrt(na * nb)
    const qa = quantize(a)
    expect(Math.max(...qa.map(Math.abs))).toBe(127)
    expect(Math.abs(semanticCosine(qa, quantize(b)) - exact)).toBeLessThan(0.01)
  })

  it('gives 0 for an empty, all-zero or mismatched vector, never NaN', () => {
    const v = quantize([1, 2, 3])
    expect(semanticCosine(new Int8Array(0), new Int8Array(0))).toBe(0)
    expect(semanticCosine(quantize([0, 0, 0]), v)).toBe(0)
    expect(semanticCosine(v, quantize([1, 2]))).toBe(0)
  })

  it('reads a stored vector only when it has the right length (an empty one marks a page not read)', () => {
    expect(vectorOf(null)).toBeNull()
    expect(vectorOf(new Uint8Array(0))).toBeNull()
    const bytes = Buffer.alloc(SEMANTIC_DIMENSIONS, 0xff)
    expect(vectorOf(bytes)?.[0]).toBe(-1)
  })

  it('reads a page as its title and the start of its text, whitespace folded', () => {
    expect(semanticInput('  A  title ', `first\n\nparagraph ${'x'.repeat(1000)}`)).toMatch(/^A title\. first paragraph x+$/)
    expect(semanticInput('A title', 'y'.repeat(1000)).length).toBe('A title. '.length + 400)
    expect(semanticInput(null, 'text only')).toBe('text only')
  })
})
