// Forms of a prompt word that say its topic better than the word itself. Buyers name audiences by what
// they do ("gardeners", "bakers", "investors"), while pages, and so the corpora and the vocabulary,
// name the activity ("gardening", "baking", "investing"); and they split compounds that pages write as
// one word ("cyber security").

/** How sure the topic model is of a word's tier-1 topic, read alone: its best probability (0..1). */
export type TopicStrength = (word: string) => number
/** How close two words are in meaning (word-vector cosine), or null when either is not a known word. */
export type Relatedness = (a: string, b: string) => number | null

/** A form must name its topic at least this surely to stand in for the word, and this much more surely than it. */
const MIN_FORM_STRENGTH = 0.4
const MIN_FORM_GAIN = 0.2
/** Only a word named less surely than this is read through another form. */
const WEAK_WORD = 0.5
/**
 * A form must be a word, and one of like meaning: "bakers" and "baking" are 0.44 apart, where a cut
 * that only looks like a form is not ("copper" and "cop" 0.01, "paper" and "pap" 0.19).
 */
const MIN_RELATED = 0.42

/** Agent suffixes, longest first; the stem left is tried as the activity or the field. */
const AGENT_SUFFIXES = ['ists', 'ians', 'ers', 'ors', 'ist', 'ian', 'er', 'or'] as const
const MIN_STEM = 3

function activityForms(word: string, base: string): string[] {
  // "engineers" → "engineering" and "volunteers" → "volunteering" keep the whole singular.
  const singular = word.endsWith('s') ? word.slice(0, -1) : word
  const forms = [`${base}ing`, `${singular}ing`, base, `${base}e`, `${base}y`, `${base}ics`, `${base}ism`]
  // "shoppers" → "shopp" → "shopping" is above; "shop" needs the double letter undone.
  if (/([bdfgklmnprtz])\1$/.test(base)) forms.push(base.slice(0, -1))
  return forms
}

/**
 * The form of `word`'s activity or field that names a topic clearly more surely than the word does
 * ("gardeners" → "gardening", "economists" → "economy", "bakers" → "baking"), or null: the first such
 * form that is a word of like meaning, and only for a word whose own topic is unsure.
 */
export function knownForm(word: string, strength: TopicStrength, related: Relatedness): string | null {
  const own = strength(word)
  if (own >= WEAK_WORD) return null
  for (const suffix of AGENT_SUFFIXES) {
    if (!word.endsWith(suffix) || word.length - suffix.length < MIN_STEM) continue
    for (const form of activityForms(word, word.slice(0, -suffix.length))) {
      if ((related(word, form) ?? 0) < MIN_RELATED) continue
      const s = strength(form)
      if (s >= MIN_FORM_STRENGTH && s >= own + MIN_FORM_GAIN) return form
    }
  }
  return null
}

/**
 * Two words that name a topic surely only when written as one: "cyber security" → "cybersecurity". A
 * one-letter prefix says nothing alone, so "e-sports" is "esports" (eSports) whenever the model knows
 * that word, however surely "sports" names Sports.
 */
export function joinedForm(a: string, b: string, strength: TopicStrength): string | null {
  const joined = `${a}${b}`
  const s = strength(joined)
  if (s < MIN_FORM_STRENGTH) return null
  return a.length === 1 || s >= Math.max(strength(a), strength(b)) + MIN_FORM_GAIN ? joined : null
}
