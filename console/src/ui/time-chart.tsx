import 'uplot/dist/uPlot.min.css'

import { useEffect, useRef } from 'preact/hooks'
import uPlot from 'uplot'

export interface TimeSeries {
  label: string
  values: number[]
  color: string
}

/**
 * A time chart drawn by uPlot (canvas, ~45 KB): lines, or with `stacked` areas whose legend still
 * shows each series' own value. Days are YYYY-MM-DD strings. The numbers are also given as a table
 * for screen readers, since a canvas has no text.
 */
export function TimeChart(props: { title: string; days: string[]; series: TimeSeries[]; stacked?: boolean; format?: (n: number) => string }) {
  const el = useRef<HTMLDivElement>(null)
  const fmt = props.format ?? ((n: number) => n.toLocaleString('en-US'))

  useEffect(() => {
    const target = el.current
    if (!target || props.days.length === 0) return
    const xs = props.days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000)
    const raw = props.series.map((s) => s.values)
    // Stacked: series i is drawn at the sum of series 0..i, filled, the tallest first.
    const drawn = props.stacked ? raw.map((_, i) => xs.map((_x, j) => raw.slice(0, i + 1).reduce((sum, v) => sum + (v[j] ?? 0), 0))) : raw
    const order = props.stacked ? props.series.map((_, i) => props.series.length - 1 - i) : props.series.map((_, i) => i)
    const opts: uPlot.Options = {
      width: Math.max(320, target.clientWidth),
      height: 260,
      scales: { x: { time: true } },
      series: [
        { label: 'Day', value: (_u, v) => (v == null ? '—' : new Date(v * 1000).toISOString().slice(0, 10)) },
        ...order.map((i) => ({
          label: props.series[i]!.label,
          stroke: props.series[i]!.color,
          width: 2,
          ...(props.stacked ? { fill: `${props.series[i]!.color}cc` } : {}),
          value: (_u: uPlot, _v: number | null, _si: number, idx: number | null) => (idx == null ? '—' : fmt(raw[i]![idx] ?? 0)),
        })),
      ],
      // Whole days only on the time axis: the data are daily.
      axes: [
        { incrs: [86_400, 2 * 86_400, 7 * 86_400, 30 * 86_400], values: (_u, ticks) => ticks.map((t) => new Date(t * 1000).toISOString().slice(5, 10)) },
        { values: (_u, ticks) => ticks.map((t) => fmt(t)) },
      ],
    }
    const plot = new uPlot(opts, [xs, ...order.map((i) => drawn[i]!)], target)
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(320, target.clientWidth), height: 260 }))
    resize.observe(target)
    return () => {
      resize.disconnect()
      plot.destroy()
    }
  }, [props.days, props.series, props.stacked])

  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      {props.days.length === 0 ? <p class="muted">No data in this period.</p> : <div ref={el} class="uplot-host" role="img" aria-label={props.title} />}
      <table class="sr-only">
        <caption>{props.title}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {props.series.map((s) => (
              <th scope="col" key={s.label}>
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.days.map((d, j) => (
            <tr key={d}>
              <th scope="row">{d}</th>
              {props.series.map((s) => (
                <td key={s.label}>{fmt(s.values[j] ?? 0)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
