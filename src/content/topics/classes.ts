/** Tier-1 nodes the topic model does not predict: media genres describe a format, not a subject, and sensitive topics are scored apart (brand safety). */
export const TOPIC_ROOT_EXCLUDED: ReadonlySet<string> = new Set(['SPSHQ5', 'v9i3On'])
