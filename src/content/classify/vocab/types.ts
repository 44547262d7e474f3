/** IAB Unique ID → comma-separated curated terms; `term^2` weighs a term (default weight 1). */
export type Vocabulary = Readonly<Record<string, string>>
