export interface Bar {
  label: string
  value: number
}

/**
 * A horizontal bar chart in SVG: one row per label, the value written beside its bar. Labels are
 * SVG text nodes (web text stays text), and the same numbers are in a table for screen readers.
 */
export function BarChart(props: { title: string; bars: Bar[]; format?: (n: number) => string; max?: number }) {
  const bars = props.bars.slice(0, props.max ?? 15)
  const top = Math.max(1, ...bars.map((b) => b.value))
  const fmt = props.format ?? ((n: number) => n.toLocaleString('en-US'))
  const row = 24
  const labelW = 170
  const barW = 220
  const height = bars.length * row + 4
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      {bars.length === 0 ? (
        <p class="muted">No data.</p>
      ) : (
        <>
          <svg viewBox={`0 0 ${labelW + barW + 70} ${height}`} width="100%" role="img" aria-label={props.title} preserveAspectRatio="xMinYMin meet">
            {bars.map((b, i) => {
              const w = Math.max(1, (b.value / top) * barW)
              const y = i * row + 2
              return (
                <g key={`${b.label}-${i}`}>
                  <text x={labelW - 8} y={y + 15} text-anchor="end" class="bar-label">
                    {b.label.length > 26 ? `${b.label.slice(0, 25)}…` : b.label}
                  </text>
                  <rect x={labelW} y={y + 3} width={w} height={row - 8} rx="2" class="bar" />
                  <text x={labelW + w + 6} y={y + 15} class="bar-value">
                    {fmt(b.value)}
                  </text>
                </g>
              )
            })}
          </svg>
          <table class="sr-only">
            <caption>{props.title}</caption>
            <tbody>
              {bars.map((b, i) => (
                <tr key={`${b.label}-${i}`}>
                  <th scope="row">{b.label}</th>
                  <td>{fmt(b.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </figure>
  )
}

/** Counts of `key` over rows, largest first. */
export function tally<T>(rows: T[], key: (r: T) => string): Bar[] {
  const m = new Map<string, number>()
  for (const r of rows) {
    const k = key(r)
    m.set(k, (m.get(k) ?? 0) + 1)
  }
  return [...m.entries()].map(([label, value]) => ({ label, value })).sort((a, b) => b.value - a.value || a.label.localeCompare(b.label))
}
