// In-article boilerplate and the lead: what goes, what stays, and the rule named for each drop.
import { describe, expect, it } from 'vitest'
import { extractMainText } from '../../../src/scraping/extract/main-text.ts'
import { parseHtml } from '../../../src/scraping/extract/parse-html.ts'

const prose = (n: number): string =>
  `<p>${'The council met on Tuesday to discuss the new bridge, which residents have asked for since the flood, and agreed on a budget. '.repeat(n)}</p>`

function run(body: string, title = 'Bridge approved'): ReturnType<typeof extractMainText> {
  return extractMainText(parseHtml(`<html><head><title>${title}</title></head><body>${body}</body></html>`), title, true, true)
}

describe('in-article boilerplate', () => {
  it('drops share bars, newsletter boxes, credits, metadata lines and related sections, naming the rule', () => {
    const result = run(`<article>
      <h1>Bridge approved</h1>
      <p>Von Anna Muster</p>
      <p>19. Oktober 2019, 16:14 Uhr</p>
      ${prose(4)}
      <div class="author-box"><p>Anna Muster writes about towns and Facebook.</p></div>
      <p>(Foto: Getty Images)</p>
      ${prose(3)}
      <p>Melden Sie sich für unseren Newsletter an und verpassen Sie nichts.</p>
      <h3>Siehe auch</h3>
      <ul><li><a href="/a">Another story about bridges</a></li><li><a href="/b">A story about roads</a></li></ul>
    </article>`)
    expect(result.text).toContain('The council met on Tuesday')
    for (const gone of ['Anna Muster', '16:14', 'Facebook', 'Getty', 'Newsletter', 'Siehe auch', 'Another story']) expect(result.text).not.toContain(gone)
    const rules = new Set(result.dropped?.map((d) => d.rule))
    expect(rules).toEqual(new Set(['meta-line', 'furniture-class', 'credit-line', 'boilerplate-phrase', 'related-section']))
  })

  it('drops embed consent placeholders and loading indicators, and keeps embedded posts', () => {
    const result = run(`<article>${prose(3)}
      <blockquote class="twitter-tweet"><p lang="de">Neue Technologien gegen den Klimawandel, sagt die Fraktion.</p>— CDU (@cdu)</blockquote>
      ${prose(2)}
      <div class="BorlabsCookie"><div class="_brlbs-content-blocker"><p>Klicken Sie auf den unteren Button, um den Inhalt von www.komoot.de zu laden.</p></div></div>
      ${prose(2)}
      <div id="loading" class="loadingAnimation fadeOut"><span>Lade weitere Inhalte ...</span></div>
      <p>Loading…</p>
      <h3>Laden</h3>
      ${prose(1)}
    </article>`)
    expect(result.text.match(/The council met/g)?.length).toBe(8)
    expect(result.text).toContain('Laden')
    // An embedded post is quoted by the article: the reference corpora count it as article text.
    expect(result.text).toContain('Klimawandel')
    for (const gone of ['komoot', 'Lade weitere', 'Loading']) expect(result.text).not.toContain(gone)
    expect(new Set(result.dropped?.map((d) => d.rule))).toEqual(new Set(['furniture-class', 'boilerplate-phrase']))
  })

  it("drops a slideshow's counter and keeps its caption and prose that counts images", () => {
    const result = run(`<article>${prose(3)}
      <figure><p>Image 1 of / 8</p><p>Defense Secretary Mark Esper shakes hands with his Vietnamese counterpart in Hanoi.</p></figure>
      <div><span>Bild 3 von 12</span></div>
      ${prose(2)}
      <p>Image 1 of the series shows the old bridge.</p>
    </article>`)
    for (const gone of ['Image 1 of / 8', 'Bild 3 von 12']) expect(result.text).not.toContain(gone)
    expect(result.text).toContain('shakes hands with his Vietnamese counterpart')
    expect(result.text).toContain('Image 1 of the series shows the old bridge.')
    expect(result.dropped?.filter((d) => d.rule === 'boilerplate-phrase').map((d) => d.text)).toEqual(['Image 1 of / 8', 'Bild 3 von 12'])
  })

  it('drops a table of contents and a "MIRA:" pointer to another story', () => {
    const result = run(`<article>${prose(2)}
      <div id="ez-toc-container" class="ez-toc-v2_0_17"><p class="ez-toc-title">Inhaltsverzeichnis</p><p>1. Was ist Dekantieren und wo liegt der Sinn?</p><p>2. Wann sollte man einen Wein dekantieren?</p></div>
      ${prose(3)}
      <p>MIRA: <a href="/otra">Madre se acerca a conocer los motivos de captura</a></p>
      ${prose(2)}
    </article>`)
    expect(result.text.match(/The council met/g)?.length).toBe(7)
    for (const gone of ['Inhaltsverzeichnis', 'Dekantieren', 'MIRA']) expect(result.text).not.toContain(gone)
    expect(new Set(result.dropped?.map((d) => d.rule))).toEqual(new Set(['furniture-class', 'boilerplate-phrase']))
  })

  it('drops a link marked by arrows between paragraphs, not linked prose nor arrows in prose', () => {
    const result = run(`<article>${prose(3)}
      <p><a href="/corona-lokal">&gt;&gt; Wegen Corona: Danni Büchner muss ihr Lokal schließen &lt;&lt;</a></p>
      <p><a href="/facc">&gt;&gt;&gt; Zulieferer FACC profitiert von Erholung der Luftfahrtbranche</a></p>
      <p><a href="/spiel">» Alle Infos zum Spiel</a></p>
      <p><a href="/bericht">Der Bericht des Rechnungshofs liegt seit Montag vor</a></p>
      <p>» Der Rat stimmte zu, sagte die Bürgermeisterin, <a href="/rat">wie erwartet</a>.</p>
      <p><a href="/kafka">»Die Verwandlung« von Franz Kafka</a></p>
      ${prose(2)}
    </article>`)
    for (const gone of ['Wegen Corona', 'FACC', 'Alle Infos']) expect(result.text).not.toContain(gone)
    for (const kept of ['Rechnungshofs', 'Der Rat stimmte zu', 'Die Verwandlung']) expect(result.text).toContain(kept)
    expect(new Set(result.dropped?.map((d) => d.rule))).toEqual(new Set(['boilerplate-phrase']))
  })

  it('reads "you might also be interested in" headings in several languages as related sections', () => {
    for (const heading of [
      'Das Thema könnte dich auch interessieren:',
      'You might also be interested in',
      'También te puede interesar',
      'Vous aimerez aussi',
      'Ähnliche Neuigkeiten:',
      'Mehr zu diesem Thema',
      'LE PIÚ CONDIVISE',
    ]) {
      const result = run(`<article>${prose(4)}<h3>${heading}</h3><p><a href="/x">Another bridge</a></p></article>`)
      expect(result.text, heading).not.toContain(heading.slice(0, 12))
      expect(result.dropped?.map((d) => d.rule)).toContain('related-section')
    }
  })

  it('drops date lines in more shapes: numeric dates in either order, times, zones and reading times beside the date, relative dates', () => {
    const lines = [
      'Updated 11/8/2023 10:46 PM',
      'Updated 12:24 am EST, Wednesday, November 20, 2019',
      'Publié le 27 octobre 2023 à 15h01 Lecture 1 min.',
      'Online seit heute, 12.09 Uhr',
      'vor 16 Stunden',
      '2 hours ago',
    ]
    // Short prose that holds a date with a time, a score, a zone-like word ("ist", "est") or an
    // ambiguous numeric date: a date line holds only label words beside its dates and times.
    const guards = [
      'She was born on 1/2/1990 in Paris.',
      'Bayern won 3:1 on 12/05/2019',
      'Die Sitzung ist am 12.05.2019 öffentlich.',
      'Il est né le 01/02/1990 à Lyon.',
      'Kipchoge ran 2:01:39 in Berlin, 16.9.2018',
      'Halbzeit 14:12, Endstand 28:25, 12.05.2019',
      'Doors open at 7:30 pm on 12/05/2019.',
      'Der Zug fährt um 10:30 Uhr am 12.05.2019 ab.',
    ]
    const result = run(`<article>${prose(14)}${lines.map((l) => `<p>${l}</p>`).join('')}
      <p>Tickets cost 12.50 euros from 1 March 2021.</p>
      <h3>Heute</h3>${prose(2)}
      ${guards.map((g) => `<p>${g}</p>`).join('')}
      <ul><li>Heute, 18:00 Uhr</li><li>vor 3 Tagen</li></ul>
      <p>Heute 9.99 €</p>
      <p>The meeting on 3 May 2020 at 10:00 was cancelled.</p>
    </article>`)
    for (const line of lines) expect(result.text, line).not.toContain(line.slice(0, 12))
    expect(result.dropped?.filter((d) => d.rule === 'meta-line').length).toBe(lines.length)
    // A price is no time, and a sentence around a date is no date line.
    expect(result.text).toContain('Tickets cost 12.50 euros')
    expect(result.text).toContain('The meeting on 3 May 2020 at 10:00 was cancelled')
    // A day word alone is a heading, not a date line; in a list it is data; before a price, a price.
    for (const kept of ['Heute\n', ...guards, 'Heute, 18:00 Uhr', 'vor 3 Tagen', 'Heute 9.99 €']) expect(result.text, kept).toContain(kept)
  })

  it('keeps prose after a related heading, dates in lists and labels that only mention a phrase', () => {
    const result = run(`<article>${prose(4)}
      <h3>Weitere Informationen</h3>
      ${prose(2)}
      <ul><li>12.05.2019 first reading</li><li>19.06.2019 second reading</li></ul>
      <p>Die Polizei will Anzeige erstatten, sagte ein Sprecher.</p>
    </article>`)
    expect(result.text).toContain('12.05.2019 first reading')
    expect(result.text).toContain('Anzeige erstatten')
    expect(result.text.match(/The council met/g)?.length).toBe(6)
  })

  it('drops link lists after the last paragraph of prose', () => {
    const result = run(`<article>${prose(5)}<p><a href="/t/1">Politics</a>, <a href="/t/2">Bridges</a></p></article>`)
    expect(result.text).not.toContain('Politics')
    expect(result.dropped?.map((d) => d.rule)).toContain('link-edge')
  })

  it('keeps links written out as addresses and reference lists after the last prose', () => {
    const result = run(`<article>${prose(5)}
      <ul><li><a href="https://nodejs.org/api/inspector.html">https://nodejs.org/api/inspector.html</a></li></ul>
      <ol class="references"><li id="cite_note-1"><a href="#r1">^</a> <cite><a href="https://example.org/bridge">"Bridge opens"</a></cite></li></ol>
      <ul><li><a href="/more">More bridge stories</a></li></ul>
    </article>`)
    expect(result.text).toContain('https://nodejs.org/api/inspector.html')
    expect(result.text).toContain('"Bridge opens"')
    expect(result.text).not.toContain('More bridge stories')
  })

  it('drops teaser cards: a link that wraps a heading or a paragraph points at another page', () => {
    const result = run(`<article>${prose(5)}
      <a href="/hay" class="card"><h4>Hay, harvested right</h4><p>Hay is the basis of good feeding, yet many bales hold dust and mould spores, which is why the whole story is worth a look.</p></a>
      ${prose(2)}
      <p>See <a href="/budget">the budget</a> for details.</p>
    </article>`)
    expect(result.text).not.toContain('Hay is the basis')
    expect(result.text).toContain('the budget')
    expect(result.dropped).toContainEqual({ rule: 'teaser-card', text: expect.stringContaining('Hay, harvested right') })
  })

  it('drops captions closed by a credit, legends, app and shop notes, file labels, field rows and comment headers', () => {
    const result = run(`<article>${prose(4)}
      <p>The old bridge in winter, before the flood took its middle span.<br>Foto © Peter Steiger</p>
      <div class="legend"><div class="content">Workers on the new deck in May.</div></div>
      <p><b>Get the latest news straight to your phone with the Town app.</b></p>
      <p>Der Artikel wurde erfolgreich hinzugefügt.</p>
      <p><a href="/plan.pdf">Bauplan vom 14. Oktober 2021</a>PDF | 38 KB | Datei ist nicht barrierefrei</p>
      ${prose(3)}
      <p>Aufrufe: 1120 | Hinzugefügt von: Posh | Tags: Brücke, Stadt | Rating: 0.0/0</p>
      <p>ANZEIGE - Heute mal ausgehen? Wie wäre es mit:</p>
      <p>#1 Kommentar von Naru-chan</p>
      <p>Danke für den Artikel!</p>
    </article>`)
    expect(result.text).toContain('The council met on Tuesday')
    for (const gone of ['before the flood', 'new deck', 'Town app', 'erfolgreich', '38 KB', 'Aufrufe', 'ANZEIGE', 'Naru-chan', 'Danke'])
      expect(result.text).not.toContain(gone)
    const rules = new Set(result.dropped?.map((d) => d.rule))
    expect(rules).toEqual(new Set(['credit-line', 'boilerplate-phrase', 'meta-line', 'related-section']))
  })

  it("drops a caption closed by a bare © and an agency's credit line, not a document's © notice nor a section holding a caption", () => {
    const result = run(`<article>${prose(4)}
      <p><img src="/a.jpg"><br>Marco Odermatt, Ski-Star aus der Schweiz. © AFP / MARCO BERTORELLO</p>
      <p>APA/HELMUT FOHRINGER</p>
      <div><h2>Sender wieder aktiv</h2><p>Erleichterung breitet sich aus.</p><p><img src="/b.jpg"><br>Bavaria im Flug. © Markus Leitner</p></div>
      <p>Sven Hoppe/dpa</p>
      <p>…or, why do I bother. © 2002, 2003 Jamie Zawinski</p>
      <p>Preise steigen und/oder fallen je nach Saison.</p>
      <p>Die Gewerkschaft kündigte für die kommende Woche weitere Warnstreiks im Nahverkehr an, nachdem die dritte Verhandlungsrunde ohne Ergebnis endete. © dpa</p>
      <p><img src="/c.jpg"><br>Die Börse am Morgen. © Thomson Reuters 2020</p>
      ${prose(3)}
    </article>`)
    for (const gone of ['Odermatt', 'FOHRINGER', 'Hoppe']) expect(result.text).not.toContain(gone)
    // A paragraph of prose that ends "© dpa" is beside no image; a year makes a notice.
    for (const kept of ['Jamie Zawinski', 'und/oder', 'Sender wieder aktiv', 'Erleichterung', 'Warnstreiks', 'Thomson Reuters 2020'])
      expect(result.text).toContain(kept)
    expect(new Set(result.dropped?.map((d) => d.rule))).toEqual(new Set(['credit-line']))
  })

  it("drops what pages never written against put after their articles: forms' messages, saved-story and feedback widgets, paywall, reproduction and end-of-story lines", () => {
    // Kinds found at the end of the htmldate dev pages' text, which no main-text rule had been written from. A long
    // article, so the drops stay under half of it (else the largest are given up).
    const result = run(`<article>${prose(34)}
      <p>Bitte gib eine gültige E-Mail-Adresse ein.</p>
      <p>Es gab leider ein Problem beim Absenden des Formulars. Bitte versuche es erneut.</p>
      <p>Story Saved</p><p>You can find this story in My Bookmarks.</p>
      <p>War dieser Artikel hilfreich?</p>
      <p>If you're on the ABC7 News app, click here to watch live</p>
      <p>Votre abonnement n’autorise pas la lecture de cet article</p>
      <p>RIPRODUZIONE RISERVATA © Copyright ANSA</p>
      <p>&lt;저작권자ⓒ대전일보사. 무단전재-재배포 금지&gt;</p>
      <p>Подписывайтесь на наш канал:</p>
      <p>Kommentare (0)</p>
      <p>انتهای پیام/ی</p>
      <p>We use your sign-up to provide content in ways you’ve consented to and improve our understanding of you. This may include adverts from us and 3rd parties based on our understanding.</p>
      <p>Vielen Dank für Ihre Registrierung. Sie haben jetzt den Aktivierungslink per E-Mail erhalten.</p>
      <p>Turn on notifications to receive alerts as stories develop in real-time.</p>
      <p>KATAPULT ist gemeinnützig und unabhängig. Wir finanzieren uns durch Spenden und Abos. Unterstütze unsere Arbeit!</p>
      <p>Zapraszamy też do subskrypcji tygodnika w Sieci Przyjaciół – www.siecprzyjaciol.pl.</p>
      <p>Deprecated: preg_replace(): The /e modifier is deprecated, use preg_replace_callback instead in /www/htdocs/w00/wp-includes/functions.php on line 28</p>
      <p>Читайте також Прорив в українському правосудді</p>
      <p>Abb.: Collage aus Internetbildern und Wake News</p>
      <p>weitere Bildautoren: Jan Muster, Eva Beispiel</p>
      <p>Permalien https://p.dw.com/p/RPYx</p>
      <p>page revision: 8, last edited: 17 Jun 2018 15:15</p>
      <p><a href="/mehr">mehr...</a></p>
      <p>Titelbild: Geyres Christophe/ABACA/picture-alliance</p>
      <p>Photo Source: Markus Spiske from Pexels.</p>
      <p>Image credit: www.apple.com/in/</p>
      <p>This story was originally published at nytimes.com. Read it here.</p>
      <p>Original-Content von: Polizei Steinfurt, übermittelt durch news aktuell</p>
      <p>Our website uses cookies to offer you optimal navigation and personalized content. By continuing your browsing on our site, you agree to the use of cookies.</p>
      <p>Wir verwenden Cookies, um Inhalte zu personalisieren. Klicken Sie auf Akzeptieren, um zuzustimmen.</p>
      <p>Ce site utilise des cookies pour améliorer votre expérience.</p>
      <p>As notícias que você não pode perder diretamente no seu e-mail.</p>
      <p>Verpasse keine News zu Hardware &amp; Gadgets</p>
      <p>Nutze die kleine rote Glocke unten rechts um aktuell informiert zu werden!</p>
      <p>Folge uns auf Facebook | Instagram</p>
      <p>- Anúncio -</p>
      <p>Lesedauer etwa 4 min. | Text vorlesen Stop Pause Fortsetzen</p>
      <p>Revision as of 07:47, 28 March 2020 (edit)</p><p>(talk | contribs)</p>
      <p>Exklusiv für Abonnenten</p>
      <p>写真を拡大</p>
      <p>CLICK HERE TO GET THE FOX NEWS APP</p>
      <p>Follow me on Twitter or LinkedIn. Check out my website or some of my other work here.</p>
      <p>Advertising disclosure: We may receive compensation for some of the links in our stories.</p>
      <p>Rate this post</p>
      <p>Ende des Videobeitrags</p>
      <p>Da ist etwas schiefgelaufen. Bitte erneut versuchen!</p>
      <p>Diese Mailadresse ist bereits registriert.</p>
      <p>Wir würden hier gerne eine Newsletter Anmeldung zeigen. Leider haben Sie uns hierfür keine Zustimmung gegeben. Wenn Sie diesen anzeigen wollen, stimmen sie bitte zu.</p>
      <p>Symbolgrafik:© Butch - stock.adobe.com</p>
      <p>Wenn du keinen Artikel mehr zu Bahnreisen in Deutschland und Europa verpassen willst, dann hol dir jetzt meinen gratis Newsletter! Du kannst mir auch auf Facebook und Twitter folgen.</p>
    </article>`)
    expect(result.text).toContain('The council met on Tuesday')
    for (const gone of [
      'E-Mail-Adresse',
      'Formulars',
      'Story Saved',
      'My Bookmarks',
      'hilfreich',
      'ABC7',
      'abonnement',
      'RIPRODUZIONE',
      '무단전재',
      'Подписывайтесь',
      'Zapraszamy',
      'preg_replace',
      'Читайте',
      'Collage',
      'Bildautoren',
      'RPYx',
      'page revision',
      'mehr...',
      'Kommentare',
      'انتهای',
      'sign-up',
      'Registrierung',
      'notifications',
      'KATAPULT',
      'Titelbild',
      'Photo Source',
      'Image credit',
      'originally published',
      'Original-Content',
      'Our website uses cookies',
      'Wir verwenden Cookies',
      'Ce site utilise',
      'seu e-mail',
      'Verpasse keine',
      'Glocke',
      'Folge uns',
      'Anúncio',
      'vorlesen',
      'Revision as of',
      'contribs',
      'Abonnenten',
      '写真',
      'FOX NEWS APP',
      'Follow me',
      'disclosure',
      'Rate this',
      'Videobeitrags',
      'schiefgelaufen',
      'bereits registriert',
      'Zustimmung',
      'Symbolgrafik',
      'gratis Newsletter',
    ])
      expect(result.text).not.toContain(gone)
  })

  it('reads "also read", "most read" and "topics in this article" as related sections in several languages', () => {
    const result = run(`<article>${prose(4)}
      <p>Baca juga: Menhub pertimbangkan turunkan tarif</p>
      <p>Veja Também</p>
      <h3>Topics mentioned in this article</h3><ul><li><a href="/t/a">Cricket</a></li><li><a href="/t/b">India</a></li></ul>
      <h3>Meist-gelesen</h3><ul><li><a href="/c">Another story</a></li></ul>
      <h3>Les plus lus</h3><ul><li><a href="/d">Une autre histoire</a></li></ul>
      <p><a href="/e">Read the Full Article</a></p>
    </article>`)
    expect(result.text).toContain('The council met on Tuesday')
    for (const gone of ['Baca juga', 'Veja', 'Topics mentioned', 'Cricket', 'Meist-gelesen', 'Another story', 'Les plus lus', 'Une autre', 'Full Article'])
      expect(result.text).not.toContain(gone)
  })

  it('keeps a tutorial that speaks of passwords, required fields and bookmarks in its prose', () => {
    const result = run(`<article>${prose(3)}
      <h2>Double Opt-In</h2>
      <p>Das Passwort sollte lang sein; Pflichtfelder markiert man mit einem Stern.</p>
      <p>Readers keep the stories they like in their bookmarks and come back later.</p>
      ${prose(2)}
    </article>`)
    for (const kept of ['Double Opt-In', 'Pflichtfelder markiert', 'in their bookmarks']) expect(result.text).toContain(kept)
  })

  it('keeps prose that names a photo, a file or a comment in passing', () => {
    // Prose holding the words of a widget's line: each boilerplate phrase is written so these stay.
    const kept = [
      'Bei der Wahl ist etwas schiefgelaufen, sagte der Bürgermeister.',
      '„Da ist etwas schiefgelaufen“, sagte der Trainer nach dem Spiel.',
      'Der Betriebsrat hat dem Plan bislang keine Zustimmung gegeben, sagte eine Sprecherin.',
      'Die Betrüger schicken die Rechnung directement dans votre boîte aux lettres, warnt die Polizei.',
      'In this recipe we use cookies to build the crust.',
      'Wir verwenden Cookies nur für die Anmeldung, sagt der Betreiber der Seite.',
      'Ta strona korzysta z funduszy unijnych na rozwój regionu.',
      'Die App ist kostenlos für iOS und Android erhältlich.',
      'To pay, scan the QR code at the register.',
      'Listen to the story behind the song on the radio tonight.',
      'Die neue Funktion kann jeden Text vorlesen.',
      'Das Angebot gilt nur für Abonnenten.',
      'Mehr zu diesem Thema wollte der Minister nicht sagen.',
    ]
    const result = run(`<article>${prose(14)}
      <p>The mayor showed the plan as a PDF and asked for comments by Friday; the photo of the old bridge hangs in the hall.</p>
      <p>Notice: trains on line 3 are delayed.</p>
      <p>Warning: the council's site goes down tonight for work on line 5 of the tram network.</p>
      <p>The baker says we use cookies and cream in every cake, and the mayor ordered one.</p>
      ${kept.map((k) => `<p>${k}</p>`).join('')}
      ${prose(2)}
    </article>`)
    expect(result.text).toContain('asked for comments by Friday')
    // A notice or a warning in prose is not a server's error, which names a .php file and its line.
    expect(result.text).toContain('trains on line 3')
    expect(result.text).toContain('line 5 of the tram network')
    expect(result.text).toContain('we use cookies and cream')
    for (const sentence of kept) expect(result.text, sentence).toContain(sentence)
  })

  it('keeps an article that the template wraps in an <aside>, and still drops real sidebars', () => {
    const result = run(`<div class="wrap"><aside class="column"><article>${prose(1)}</article></aside>
      <p>Short note beside it.</p>
      <aside><p>Sidebar: our most read stories, with many words to make it long enough to count.</p></aside></div>`)
    expect(result.text).toContain('The council met on Tuesday')
    expect(result.text).not.toContain('Sidebar')
  })

  it('judges blocks that sit beside the container as well: a copyright line the container picked up goes', () => {
    const result = run(
      `<div class="page"><div class="entry">${prose(3)}${prose(3)}</div><p class="legal">© 2020 Town Media Inc. All Rights Reserved.</p></div>`,
    )
    expect(result.text).toContain('The council met on Tuesday')
    expect(result.text).not.toContain('All Rights Reserved')
    expect(result.dropped).toContainEqual({ rule: 'boilerplate-phrase', text: expect.stringContaining('All Rights Reserved') })
  })

  it('never judges the container itself as a block, only what it holds', () => {
    // As a block, the whole short article would read as a privacy notice: dropped, then given back whole
    // by the share limit, with the newsletter line inside it never looked at.
    const result = run(`<div class="entry">This website uses cookies, the baker said, and laughed: his shop on the new bridge sells
      oatmeal cookies to every driver who stops on the way into town. The council met on Tuesday to discuss the bridge, which
      residents have asked for since the flood, and agreed on a budget that pays for lights, a footpath and a small square with
      benches in front of the bakery, which opens early and closes late, so that the first cars can cross next spring.
      <p>Subscribe to our newsletter.</p></div>`)
    expect(result.text).toContain('oatmeal cookies')
    expect(result.text).not.toContain('Subscribe')
  })

  it('gives up the largest drops when the rules would take most of the article', () => {
    const result = run(`<div class="content"><div class="related-wrapper">${prose(6)}</div><div class="share">Share</div></div>`)
    expect(result.text).toContain('The council met on Tuesday')
    expect(result.text).not.toContain('Share')
  })
})

describe('the lead', () => {
  it('joins a standfirst between the headline and the article container', () => {
    const result =
      run(`<header><h1>Bridge approved</h1><div class="article-intro"><p>After years of debate the town finally gets its bridge, and the first cars should cross it next spring.</p></div></header>
      <nav><a href="/">Home</a></nav>
      <div class="article-body">${prose(6)}</div>`)
    expect(result.text.startsWith('After years of debate')).toBe(true)
  })

  it('does not let a lead pass off a widget after the article as the article', () => {
    // Class names make a rating box after the article the best candidate; the "lead" before it is the article itself.
    const result = run(`<h1>Bridge approved</h1><div class="col">${prose(3)}${prose(2)}</div>
      <div class="bottom-row"><div class="post-ratings" id="post-ratings-1"><p>Please rate this article: five stars</p><p>Loading...</p></div><div class="tools">Print this page</div></div>`)
    expect(result.text).toContain('The council met on Tuesday')
    expect(result.text).not.toContain('Please rate')
  })

  it('leaves out quotes before the container, and never repeats the article', () => {
    const result =
      run(`<div class="page"><div class="top"><h1>Bridge approved</h1><blockquote><p>We waited thirty years for this bridge, said a resident who asked not to be named.</p></blockquote></div>
      <div class="main"><div class="article-body">${prose(6)}</div></div></div>`)
    expect(result.text).not.toContain('We waited thirty years')
    expect(result.text.match(/The council met/g)?.length).toBe(6)
  })
})
