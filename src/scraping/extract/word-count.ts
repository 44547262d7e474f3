// Word count that also works for scripts written without spaces: each Han/Kana character counts as one
// word (a rough but stable convention), everything else counts runs of letters, digits and marks.

const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}])+/gu

export function countWords(text: string): number {
  let n = 0
  WORD.lastIndex = 0
  while (WORD.exec(text) !== null) n++
  return n
}
