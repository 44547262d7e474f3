import { base } from '../router.ts'
import type { Activation, PixelCampaign, ScrapeJob, Segment } from '../types.ts'
import { ErrorBox, fmt, Page } from '../ui/common.tsx'
import { useApi } from '../ui/use-api.ts'

function Card(props: { title: string; href: string; count: number | null; detail: string }) {
  return (
    <a class="card" href={props.href}>
      <span class="card-title">{props.title}</span>
      <span class="card-count">{props.count === null ? '…' : fmt.int(props.count)}</span>
      <span class="muted">{props.detail}</span>
    </a>
  )
}

export function Home() {
  const segments = useApi<Segment[]>('/v1/curation/segment-requests')
  const activations = useApi<Activation[]>('/v1/curation/activations')
  const jobs = useApi<ScrapeJob[]>('/v1/scraping/jobs?limit=100')
  const campaigns = useApi<PixelCampaign[]>('/v1/pixel/campaigns')
  const building = segments.data?.filter((s) => s.status !== 'complete').length ?? 0
  const deals = activations.data?.filter((a) => a.deal_id).length ?? 0
  const running = jobs.data?.filter((j) => j.status === 'pending' || j.status === 'processing').length ?? 0
  return (
    <Page title="Overview">
      <ErrorBox error={segments.error ?? activations.error ?? jobs.error ?? campaigns.error} />
      <div class="cards">
        <Card title="Segments" href={`${base}/segments`} count={segments.data?.length ?? null} detail={`${building} building`} />
        <Card title="Activations" href={`${base}/activations`} count={activations.data?.length ?? null} detail={`${deals} with a Deal ID`} />
        <Card title="Scrape jobs" href={`${base}/scraping`} count={jobs.data?.length ?? null} detail={`${running} running`} />
        <Card title="Pixel campaigns" href={`${base}/pixel`} count={campaigns.data?.length ?? null} detail="tags and publisher reports" />
      </div>
      <p>
        <a class="button" href={`${base}/segments/new`}>
          New segment
        </a>
      </p>
    </Page>
  )
}
