// Boilerplate that sits inside the article container, which Readability's rules keep: newsletter and
// cookie boxes, share bars, comment threads, author boxes, related-links sections, captions and credits.
// Runs after the cleaner on the chosen article; every drop names its rule so a page's extraction can be
// explained (docs/extraction.md, "Main text").

import { findDates } from './date-parse.ts'
import type { DomNode } from './dom.ts'
import { classFlags, ElementNode, hasDescendant, markerOf, textOf } from './dom.ts'

export type BoilerplateRule =
  | 'furniture-class'
  | 'navigation'
  | 'boilerplate-phrase'
  | 'related-section'
  | 'credit-line'
  | 'meta-line'
  | 'privacy-notice'
  | 'link-edge'
  | 'teaser-card'

export interface DroppedBlock {
  rule: BoilerplateRule
  /** The start of the dropped text, for a person reading the trace. */
  text: string
}

/** class/id words of furniture that lives inside article bodies. */
const FURNITURE =
  /(?:^|[\s_-])(?:cookie|consent|gdpr|share|sharing|social|sociable|shariff|related|recommend(?:ed|ations)?|read-?more|more-?(?:articles|stories|news)|author-?(?:box|bio|info)|about-?(?:the-)?author|bio-?box|tags?|tag-?list|taglist|keywords|categor(?:y|ies)|breadcrumbs?|pagination|post-?nav(?:igation)?|nav-?links|prev-?next|rating|print|toolbar|promo|advert(?:isement)?|anzeige|werbung|banner|sponsored|paywall|donat(?:e|ion)|copyright|post-?meta|entry-?meta|article-?meta|sidebar|infobox-?links|footnotes-?nav|content-?blocker|borlabs-?cookie|ez-toc-container|toc_container|lwptoc)(?:$|[\s_-])/i
/** class/id words that mark the article body itself: never dropped for a furniture word alongside. */
const CONTENT =
  /(?:^|[\s_-])(?:article-?(?:body|content|text)|entry-?content|post-?(?:body|content)|story-?body|main-?content|body-?text|richtext|rich-text)(?:$|[\s_-])/i

// A class or id naming furniture (FURNITURE_WORD), one naming the article body (CONTENT_WORD): an element
// is furniture when it has the first and not the second.
const FURNITURE_WORD = 1
const CONTENT_WORD = 2
const furnitureOf = classFlags((value) => (FURNITURE.test(value) ? FURNITURE_WORD : 0) | (CONTENT.test(value) ? CONTENT_WORD : 0))

/** Short blocks that are calls to action, legal lines or navigation, in the major European languages. */
const PHRASES = new RegExp(
  [
    // newsletters, subscriptions, apps, social
    'newsletter',
    'subscribe',
    'abonnieren',
    'abonnez',
    'suscr[ií]b',
    'iscriviti',
    'jetzt anmelden',
    'sign up',
    'download (?:the|our) .{0,40}apps?',
    'follow us',
    'folgen sie uns',
    'folge uns (?:auf|bei)',
    'suivez-nous',
    'share (?:this|on)',
    'teilen sie',
    'vergiss nicht zu teilen',
    'artikel teilen',
    'canal de telegram',
    'whatsapp-kanal',
    'entdecken sie jetzt',
    'mehr von uns',
    'nichts mehr (?:verpassen|versäumen)',
    'erhalten sie exklusive',
    'jetzt (?:kostenlos )?(?:registrieren|testen|bestellen)',
    'the latest news about',
    'straight to your (?:phone|inbox|device)',
    'erfolgreich (?:hinzugefügt|in den warenkorb)',
    'added to (?:your )?(?:cart|basket)',
    // file download labels: "PDF | 38 KB"
    '(?<![a-z])(?:pdf|docx?|xlsx?|pptx?|zip)\\s*[|,(]\\s*\\d+(?:[.,]\\d+)?\\s*[kmg]b\\b',
    'for the latest stories',
    // legal and cookie notes
    'all rights reserved',
    'alle rechte vorbehalten',
    'tous droits réservés',
    'todos los derechos reservados',
    'tutti i diritti riservati',
    'wir respektieren deine privatsphäre',
    'cookies? (?:help|policy|settings|einstellungen)',
    'datenschutzerklärung',
    // comments
    'leave a (?:comment|reply)',
    'kommentar (?:schreiben|verfassen|hinterlassen)',
    'kommentare (?:schreiben|insgesamt)',
    'in den kommentaren',
    'laisser un commentaire',
    'deja un comentario',
    'lascia un commento',
    '\\d+ (?:comments|kommentare|commentaires)',
    'this entry was posted',
    'dieser eintrag wurde',
    'vorschau auf den nächsten artikel',
    'kommentare \\(\\d+\\)',
    'comments \\(\\d+\\)',
    'commenting (?:feature )?is disabled',
    // sign-up and log-in forms' own messages
    'gültige e-mail-adresse',
    'valid e-?mail address',
    'beim absenden des formulars',
    'pflichtfelder\\s*\\*|\\*\\s*pflichtfelder',
    'required fields? (?:are )?marked',
    'das passwort muss mindestens',
    'anmeldung war erfolgreich',
    'thanks? (?:you )?for (?:subscribing|signing up)',
    // a reader's saved stories, feedback widgets, out-of-date browsers, apps
    'story saved',
    'in my bookmarks',
    'war dieser artikel hilfreich',
    'was this (?:article|page|post) helpful',
    '(?:dein|ihr) browser ist (?:leider )?veraltet',
    'your browser is (?:out of date|outdated|not supported)',
    'best viewed (?:with|in) (?:internet explorer|firefox|chrome)',
    'if you.re (?:on|using) the .{1,40} app',
    // other languages' follow, share, paywall, reproduction and end-of-story lines
    'подписывайтесь',
    'поделиться',
    'seguici su',
    'síguenos en',
    'votre abonnement n.autorise pas',
    'riproduzione riservata',
    'images may be subject to copyright',
    '무단\\s*전재',
    '재배포\\s*금지',
    '無断転載',
    '版权所有',
    '版權所有',
    '责任编辑[：:]',
    'انتهای پیام',
    // skip links, breadcrumbs' labels, short-link and video prompts
    'skip to (?:the )?(?:main )?content',
    'springe zum inhalt',
    '(?:direkt )?zum inhalt springen',
    'aller au contenu',
    'saltar al contenido',
    'vai al contenuto',
    'you are here\\s*:',
    'sie sind hier\\s*:',
    'vous êtes ici\\s*:',
    'get short url',
    'keine kommentare',
    'watch more of our videos',
    'vielen dank für ihre (?:registrierung|anmeldung|bestellung)',
    'thank you for (?:registering|your registration)',
    'ihr benutzerkonto ist',
    'get alerts for',
    'originally (?:published|appeared) (?:at|on|in) ',
    'original-content von',
    'übermittelt durch news aktuell',
    // read-aloud players and labels standing alone: a wiki's revision bar, subscriber-only labels, photo and
    // link buttons (anchored where the words also occur in prose: "the app can read any text aloud")
    'text vorlesen\\W+(?:stop|pause|play)',
    '^(?:artikel|text) (?:vorlesen|anhören)\\W*$',
    '^listen to this (?:article|story)\\b.{0,20}$',
    '^écouter (?:cet|l.)article\\W*$',
    'revision as of .{5,40}\\(edit\\)',
    '\\(talk \\| contribs\\)',
    '^(?:exklusiv|nur) für abonnent(?:en|innen|\\*innen|:innen)\\W*$',
    '^(?:article )?réservé aux abonnés\\W*$',
    '写真を拡大',
    'انسخ الرابط',
    // app, author-follow and community promos; affiliate disclosures; rating widgets; video frames
    'click here to (?:get|download) the .{1,40}app',
    'jetzt kostenlos für ios und android',
    '^follow me on (?:twitter|instagram|facebook|linkedin)',
    'scan the qr code above',
    'advertising disclosure',
    'affiliate disclosure',
    'we may (?:receive|earn) .{0,30}(?:compensation|commission).{0,40}\\blinks\\b',
    '^rate this (?:post|article|story)\\W*$',
    'ende des (?:video|audio)beitrags',
    'ende der weiteren informationen',
    // a form's messages, continued
    'schief ?gelaufen\\W+bitte (?:erneut|noch ?mal|versuche)',
    '(?:e-?mail-?adresse|mailadresse) ist bereits registriert',
    'valide (?:e-?mail-?)?adresse (?:eingeben|an)',
    // a newsletter's promise, at the end of its box's line
    '(?:diretamente no seu e-?mail|directamente en tu (?:correo|bandeja de entrada)|directement dans votre boîte(?: mail| de réception)?|direttamente nella tua (?:casella|email))\\W*$',
  ].join('|'),
  'i',
)
/** Navigation and related-content labels: only at the start of a block, where they introduce links. */
/** Labels that introduce related links or further reading, in either place they are read. */
const RELATED_LABELS = [
  'siehe auch',
  'mehr zum thema',
  'auch interessant',
  'empfohlene beiträge',
  'neueste artikel',
  'you (?:may|might) also like',
  'lire aussi',
  'à lire aussi',
  'leer más',
  'leggi anche',
  'zobacz (?:też|także)',
  'czytaj (?:też|także)',
  'lees ook',
  'also read',
  'veja também',
  'leia também',
  'baca juga',
  'читайте (?:також|также)',
  'ähnliche (?:neuigkeiten|beiträge|artikel)',
].join('|')
const NAV_START = new RegExp(
  `^(?:${RELATED_LABELS}|read more|weiterlesen|lesen sie (?:auch|mehr)|das könnte sie auch interessieren|weiterführender? links?|related (?:stories|articles|coverage|posts)|more from|zurück zu(?:r)? |back to |lee también|(?:lea|ver|mira) también|te puede interesar|mira\\s*:|partager|compartir|condividi|dowiedz się więcej|en savoir plus|read the full (?:article|story)|lihat juga|(?:anzeige|advertisement|werbung|sponsored)\\s*[-–:|])`,
  'i',
)
/**
 * A line that is one link marked by arrows (">> Wegen Corona: … <<", "» Alle Infos zum Spiel"): a
 * pointer to another story set between paragraphs. Linked prose carries no such marks, and a title in
 * German quotation marks ("»Die Verwandlung« von Franz Kafka") has no space inside them.
 */
const ARROW_POINTER = /^(?:>>|»(?=\s)|→|▶|►|➤|⇒)|(?:<<|(?<=\s)«)$/
/** A teaser's "more" link left alone on its line: "mehr...", "more »". */
const MORE_LINK = /^(?:mehr|more|weiter|plus|más|meer)\s*(?:\.{3}|…|»|›|>+)$/i
/** A block that is only an advertising label. */
const AD_LABEL =
  /^\W*(?:anzeige|advertisement|advertorial|werbung|publicité|publicidad|pubblicità|reklama|sponsored|anúncio|publicidade|advertentie|annonce|mainos)\W*$/i
/**
 * A block that is only a loading indicator's text ("Loading …", "Lade weitere Inhalte …"); a single word
 * only with its dots, since "Laden" alone is also a section heading (charging, in a car review).
 */
const LOADING_LINE =
  /^\W*(?:(?:loading|laden|cargando|caricamento|chargement|ładowanie)\s*(?:\.{2,}|…)|(?:loading more|lade weitere inhalte|wird geladen|inhalte werden geladen|chargement en cours|caricamento in corso)\s*(?:\.{2,}|…)?)\s*$/i
/** A slideshow's counter ("Image 1 of 8", "Image 1 of / 8", "Bild 3 von 12", "Foto 2 de 5"). */
const SLIDE_COUNTER = /^\W*(?:image|photo|picture|slide|bild|foto|imagen|immagine|zdjęcie|afbeelding)\s+\d+\s*(?:of|von|de|di|sur|z|van|\/)\s*\/?\s*\d+\W*$/i
/** Metadata lines: "Kategorie: News", "Von:", "4 Min Read", "Aufrufe: 12", a bare time. */
const META_LINE =
  /^(?:(?:kategorie|kategorien|category|categories|rubrik|ressort|tags?|schlagwörter|schlagworte|stichwörter|von|by|autor|autorin|author|aufrufe|views|lesezeit|reading time|publikacja|autor|release date|posted in|filed under|abgelegt unter|veröffentlicht|published|erstellt|aktualisiert|updated|stand|quelle|source|foto|fotos|bild|bilder|page revision)\s*:.{0,60}|(?:permalink|permalien)\s*:?\s*https?:\/\/\S+|\d+\s*(?:min(?:ute)?s?|minuten)\.?\s*(?:read|lesezeit|lesen)|\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?|\s*uhr)?)$/i
/** A row of labelled fields ("Aufrufe: 1120 | Hinzugefügt von: Posh | Tags: …"): a post's metadata footer. */
const META_FIELDS = /^(?:[\p{L} ]{2,25}:\s*[^|:]{0,60}\|\s*)+[\p{L} ]{2,25}:\s*[^|:]{0,60}$/u
/** A comment's header ("#1 Kommentar von Naru-chan", "2 comments by …"): a thread starts here. */
const COMMENT_HEADER = /^#?\d+\.?\s+(?:kommentare?|comments?|commentaires?|comentarios?|commenti|reply|antwort)\s+(?:von|by|de|di|from)\s.{1,60}$/i
/** A byline on its own line: "By Jane Doe", "Von Max Muster", "Par …", "Por …". */
const BYLINE_LINE =
  /^(?:[Bb]y|BY|[Vv]on|VON|[Pp]ar|[Pp]or|[Dd]i|[Dd]oor|[Aa]v|[Aa]f|[Pp]rzez|[Aa]utor(?:in)?)\s+\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*){0,3}(?:\s*[,|–-].{0,40})?$/u

const DATA = new Set(['li', 'td', 'th', 'table', 'pre', 'code', 'dl', 'ol', 'ul'])

/** Inside a list, table or code a date is data (a timeline, a log), not the page's dateline. */
function inData(el: ElementNode): boolean {
  let depth = 0
  for (let n: ElementNode | null = el; n !== null && depth < 6; n = n.parent, depth++) if (DATA.has(n.tag)) return true
  return false
}

const HAS_YEAR = /(?:19|20)\d\d/

/** A line that is a date and little else ("19. Oktober 2019, 16:14 Uhr", "Posted on May 3, 2020"). */
function isDateLine(text: string): boolean {
  if (!HAS_YEAR.test(text)) return false
  const dates = findDates(text, 2)
  let rest = text
  for (const d of dates) rest = rest.replace(text.slice(d.index, d.end), '')
  if (dates.length > 0 && rest.replace(/[\s,.|:–-]+/g, ' ').trim().length <= 25) return true
  return isLabelledDateLine(rest, dates.length > 0)
}

// What a labelled date line carries beside its date: a numeric date in either order ("11/8/2023": the
// order does not matter to tell the line), a time (10:46, 19:02:47, 15h01, "12.09 Uhr" but not a
// price), a zone written in capitals (EST, IST, GMT+7), a reading time ("Lecture 1 min.").
const NUMERIC_DATE = /\b\d{1,2}[./]\d{1,2}[./](?:19|20)\d\d\b/g
const LINE_TIME = /\b\d{1,2}(?::\d{2}(?::\d{2})?|h\d{2}|\.\d{2}(?=\s*uhr))(?:\s*(?:[ap]\.?m\.?|uhr)(?!\w))?/gi
const LINE_ZONE = /\((?:GMT|UTC)\s?[+-]?\d{0,2}\)|\b(?:GMT|UTC|CET|CEST|MEZ|MESZ|IST|EDT|EST|CDT|CST|PDT|PST|ET|PT)\b/g
const READING_TIME =
  /\b(?:lecture|lectura|lettura|lesezeit|lesedauer|reading time)\s?:?\s?(?:etwa\s)?\d+\s?min\.?|\b\d+\s?min(?:ute)?s?\.?\s?(?:read|lesezeit)\b/gi
// The only words a labelled date line holds beside its dates and times: labels, weekdays, prepositions.
const DATE_LINE_WORDS = new Set(
  `updated update published first last posted original originally modified on at of
   publié publiée mis à jour le la du lecture veröffentlicht aktualisiert zuletzt erstellt geändert stand am um uhr
   publicado actualizado el de a las pubblicato aggiornato il alle ore
   monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
   montag dienstag mittwoch donnerstag freitag samstag sonntag
   lundi mardi mercredi jeudi vendredi samedi dimanche
   lunes martes miércoles jueves viernes sábado domingo
   lunedì martedì mercoledì giovedì venerdì sabato domenica`.split(/\s+/),
)

/**
 * A date line with its label, time and zone ("Updated 12:24 am EST, Wednesday, November 20, 2019",
 * "Updated 11/8/2023 10:46 PM", "Publié le 27 octobre 2023 à 15h01 Lecture 1 min."): once dates,
 * times, zones and reading times are taken away, only label words are left. A sentence that merely
 * holds a date and a time ("Der Zug fährt um 10:30 Uhr am 12.05.2019 ab.") has other words.
 */
function isLabelledDateLine(rest: string, dated: boolean): boolean {
  const withoutNumeric = rest.replace(NUMERIC_DATE, ' ')
  if (!dated && withoutNumeric === rest) return false
  const left = withoutNumeric.replace(READING_TIME, ' ').replace(LINE_TIME, ' ').replace(LINE_ZONE, ' ')
  const leftWords = left.toLowerCase().match(/\p{L}+/gu) ?? []
  return leftWords.every((w) => w.length === 1 || DATE_LINE_WORDS.has(w))
}

/**
 * A date told relative to the visit ("Online seit heute, 12.09 Uhr", "vor 3 Stunden", "2 hours ago"): a
 * day word only with its time, so a heading "Heute" stays, and "Heute 9.99 €" is a price.
 */
const RELATIVE_DATE_LINE =
  /^(?:(?:online seit|veröffentlicht|aktualisiert|updated|published|posted)[\s:]+)?(?:(?:heute|gestern|today|yesterday|aujourd.hui|hier|hoy|ayer|oggi|ieri)[\s,]+(?:(?:um|at|à|a las|alle)\s+)?\d{1,2}(?::\d{2}|h\d{2}|\.\d{2}\s?uhr)(?:\s?(?:uhr|[ap]\.?m\.?))?|vor \d+ (?:minuten|stunden|tagen|wochen)|\d+ (?:minutes?|hours?|days?|weeks?) ago|il y a \d+ (?:minutes?|heures?|jours?)|hace \d+ (?:minutos?|horas?|días?))[\s.!]*$/i

/** Cookie and privacy boxes run longer than a call to action. */
const PRIVACY = new RegExp(
  [
    'wir respektieren (?:deine|ihre) privatsphäre',
    'we (?:value|respect) your privacy',
    '(?:diese|unsere) (?:website|webseite|seite|internetseite) (?:verwendet|nutzt|benutzt) cookies',
    // a site's own notice asks for consent; an article about cookie rules does not
    'wir (?:verwenden|nutzen|setzen) cookies.{0,200}(?:zustimm|einverstanden|akzeptier|einstellungen)',
    '(?:this|our) (?:website|web site|site) uses cookies',
    'we use cookies.{0,200}(?:consent|you agree|accept|cookie settings|cookie policy)',
    'by continuing (?:to browse|to use (?:this|our|the) (?:site|website)|your browsing).{0,100}(?:agree|accept|consent)',
    'nous utilisons des cookies',
    'ce site (?:web )?utilise des cookies',
    'en poursuivant votre navigation',
    'utilizamos cookies',
    '(?:este|nuestro) (?:sitio|site|portal)(?: web)? (?:utiliza|usa) cookies',
    'utilizziamo (?:i )?cookie',
    'questo sito (?:web )?(?:utilizza|usa) (?:i )?cookie',
    'deze (?:website|site) (?:gebruikt|maakt gebruik van) cookies',
    'ta strona (?:używa|korzysta z) (?:plików )?cookies',
    // a consent manager's placeholder for an embed it may not load
    'haben sie uns (?:hierfür |dafür )?keine zustimmung gegeben',
    'wir benötigen ihre zustimmung',
    'we need your (?:consent|permission) to (?:load|show|display)',
  ].join('|'),
  'i',
)

/** The site asking for support or consent in its own name: longer than a call to action. */
const APPEAL = new RegExp(
  [
    'unterstütze unsere arbeit',
    'unterstützen sie unsere arbeit',
    'support our (?:journalism|work|reporting)',
    'soutenez notre (?:journalisme|travail)',
    'we use your sign-up to provide content',
    'turn on notifications to receive',
    'zapraszamy (?:też |również )?do (?:subskrypcji|prenumeraty)',
    // newsletters and push notifications
    'verpasse? (?:keine|nie wieder) (?:news|nachrichten|artikel|neuigkeiten)',
    '(?:klicke?|nutze|tippe?) (?:auf )?die (?:kleine )?(?:rote )?glocke',
    'hol (?:dir|euch) (?:jetzt )?(?:meinen|unseren) (?:gratis |kostenlosen )?newsletter',
  ].join('|'),
  'i',
)

/** Whole-line credits and captions: "Foto: …", "(Foto: Getty)", "Crédits photos : …", "© 2020 …". */
const CREDIT =
  /^(?:\(?(?:(?:foto|fotos|photo|photos|bild|bilder|image|images|featured image|header image|titelbild|beitragsbild|symbolbild|symbolfoto|symbolgrafik)(?:\s*(?:source|credits?|quelle|nachweis))?|bildquelle|bildnachweis|fotoquelle|abb\.|abbildung|(?:weitere )?bildautor(?:en|in)?|quelle|source|crédits? photos?|credits?|crédito|copyright|©)\s*[:©|]|©|\(c\)\s|copyright\s)/i
/** A caption closed by its credit ("… Kastanien. Foto © Peter Steiger"): the whole block annotates an image. */
const CREDIT_TAIL = /(?:^|[\s.])(?:foto|fotos|photo|photos|bild|bilder)\s*(?:[:©]|\(c\))\s*[^.!?:]{2,60}$/i
/**
 * A caption closed by a bare © and its holder ("… aus der Schweiz. © AFP / MARCO BERTORELLO"). A year
 * after the © or after the holder makes it a document's notice ("…or, why do I bother. © 2002, 2003 Jamie
 * Zawinski", "© Thomson Reuters 2020"). Only a block of one piece beside an image counts: a section whose
 * last image's caption ends so holds its paragraphs too, and prose may end "© dpa".
 */
const COPYRIGHT_TAIL = /(?:^|[\s.])©\s*[^.!?:©\d]{2,60}$/
const ENDS_WITH_CREDIT = /\((?:foto|photo|bild|image|fotos|quelle|source)\s*:[^)]{1,80}\)\s*$/i

/**
 * A photo's credit standing alone, an agency and a photographer joined by a slash or a bar ("AFP /
 * MARCO BERTORELLO", "APA/HELMUT FOHRINGER", "Sven Hoppe/dpa"): no sentence is written so.
 */
const AGENCIES =
  'afp|apa|dpa|epa|ap|reuters|getty(?: images)?|imago(?: images)?|picture[- ]alliance|keystone|ansa|shutterstock|istock(?:photo)?|ddp(?: images)?|belga|anp|efe|xinhua|lapresse|kyodo|zuma(?: press)?|sipa|abaca|alamy|unsplash|pixabay|adobe ?stock|fotolia|dreamstime'
const AGENCY_CREDIT = new RegExp(`^(?:(?:${AGENCIES})(?:\\s*[/|]\\s*[^/|.!?:]{2,40})+|[^/|.!?:]{2,40}[/|]\\s*(?:${AGENCIES}))$`, 'iu')

/** A PHP error the server printed into the page: "Deprecated: preg_replace(): … in /var/www/… on line 28". */
const SERVER_ERROR = /^(?:deprecated|warning|notice|fatal error|strict standards|parse error)\s*:.{0,500}\bin\s+\S+\.php\s+on line\s+\d+/i

/** Navigation by markup: menus, breadcrumbs and page footers that the container picked up. */
const NAVIGATION_TAGS = new Set(['nav', 'menu'])
const NAVIGATION_ROLES = new Set(['navigation', 'contentinfo', 'banner', 'search', 'menu', 'menubar', 'toolbar'])
const HEADINGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6'])
/** Blocks judged by their text (inline elements are judged with the block that holds them). */
const BLOCKS = new Set(['p', 'div', 'section', 'aside', 'ul', 'ol', 'li', 'figure', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'dl', 'table'])
const RELATED_HEADING = new RegExp(
  `^(?:${RELATED_LABELS}|weitere informationen|weiterführende links?|lesen sie auch|related(?: stories| articles| coverage| posts| content)?|read (?:more|next|also)|more (?:from|on|stories)|recommended|sur le même sujet|noticias relacionadas|articoli correlati|gerelateerd|tags?|schlagworte|themen|kommentare|comments|über den autor|about the author|zum autor|teilen|share|quellen|quellenangaben|topics mentioned in this article|themen in diesem artikel(?: folgen)?|(?:aktuell )?beliebte artikel|meist-?(?:gelesen|kommentiert)|most (?:read|popular|shared|viewed)|les plus (?:lus|partagés|commentés)|le pi[uùú] (?:condivise|lette|viste)|mehr zu diesem thema|dernières news(?: sur)?\\s*:?.{0,40}|weitere (?:meldungen|nachrichten)|(?:das (?:thema )?|dies )?könnte (?:dich|sie|euch) auch interessieren|you (?:may|might) also be interested in|(?:también )?te puede interesar|(?:ti )?potrebbe interessar(?:ti|e)|vous (?:aimerez|pourriez aimer) aussi|à découvrir aussi)\\s*:?$`,
  'i',
)

/** Which rule, if any, drops a block with this text. */
function blockRule(el: ElementNode, text: string, run: number): BoilerplateRule | null {
  const length = text.length
  if (length === 0) return null
  if (length < 600 && PRIVACY.test(text)) return 'privacy-notice'
  if (length < 600 && APPEAL.test(text)) return 'boilerplate-phrase'
  if (length < 600 && SERVER_ERROR.test(text)) return 'boilerplate-phrase'
  if (length < 400 && (CREDIT_TAIL.test(text) || (COPYRIGHT_TAIL.test(text) && !hasDescendant(el, BLOCKS, run) && nearImage(el, run)))) return 'credit-line'
  if (length >= 160) return null
  if ((HEADINGS.has(el.tag) || length < 50) && RELATED_HEADING.test(text)) return 'related-section'
  if (length < 80 && COMMENT_HEADER.test(text)) return 'related-section'
  if (META_FIELDS.test(text)) return 'meta-line'
  if (PHRASES.test(text) || NAV_START.test(text) || AD_LABEL.test(text) || LOADING_LINE.test(text) || SLIDE_COUNTER.test(text)) return 'boilerplate-phrase'
  if ((ARROW_POINTER.test(text) || MORE_LINK.test(text)) && linkShare(el, run, length) >= 0.9) return 'boilerplate-phrase'
  if (CREDIT.test(text) || ENDS_WITH_CREDIT.test(text) || (length < 80 && AGENCY_CREDIT.test(text))) return 'credit-line'
  if (length < 80 && (META_LINE.test(text) || BYLINE_LINE.test(text) || (!inData(el) && (RELATIVE_DATE_LINE.test(text) || isDateLine(text)))))
    return 'meta-line'
  return null
}

const IMAGES = new Set(['img', 'picture', 'figure', 'svg', 'video'])

/** Whether a block holds an image or follows one (two elements back, up to two levels up): a caption's place. */
function nearImage(el: ElementNode, run: number): boolean {
  if (hasDescendant(el, IMAGES, run)) return true
  for (let n = el, depth = 0; n.parent !== null && depth < 2; n = n.parent, depth++) {
    const siblings = n.parent.children
    let seen = 0
    for (let i = siblings.indexOf(n) - 1; i >= 0 && seen < 2; i--) {
      const sibling = siblings[i] as DomNode
      if (sibling.isText) continue
      seen++
      if (IMAGES.has(sibling.tag) || hasDescendant(sibling, IMAGES, run)) return true
    }
  }
  return false
}

interface Pass {
  run: number
  drops: Array<{ el: ElementNode; rule: BoilerplateRule; text: string }>
  /** Nodes already chosen for dropping, so the related-section walk does not count them twice. */
  chosen: Set<ElementNode>
}

function drop(el: ElementNode, rule: BoilerplateRule, pass: Pass, text?: string): void {
  if (pass.chosen.has(el)) return
  pass.chosen.add(el)
  pass.drops.push({ el, rule, text: text ?? liveText(el, pass.run) })
}

function liveText(el: ElementNode, run: number): string {
  return textOf(el, run).replace(/\s+/g, ' ').trim()
}

/** The link share of a block's text (0 when it has none). */
function linkShare(el: ElementNode, run: number, textLength: number): number {
  if (textLength === 0) return 0
  let links = 0
  const stack: ElementNode[] = [el]
  while (stack.length > 0) {
    const node = stack.pop() as ElementNode
    for (const child of node.children) {
      if (child.isText || child.gone === run) continue
      if (child.tag === 'a') links += liveText(child, run).length
      else stack.push(child)
    }
  }
  return links / textLength
}

/** A heading that opens a related-links, tags or comments section: it and what follows it go. */
function dropRelatedTail(parent: ElementNode, start: number, pass: Pass): void {
  const heading = parent.children[start] as ElementNode
  drop(heading, 'related-section', pass)
  for (let i = start + 1; i < parent.children.length; i++) {
    const sib = parent.children[i]
    if (sib === undefined || sib.isText || sib.gone === pass.run || pass.chosen.has(sib)) continue
    if (HEADINGS.has(sib.tag)) break
    const text = liveText(sib, pass.run)
    // Prose after the heading (a real section that happens to be called "Weitere Informationen", or a
    // "Related coverage" box placed mid-article) ends the section.
    if (text.length > 80 && linkShare(sib, pass.run, text.length) < 0.5) break
    drop(sib, 'related-section', pass, text)
  }
}

/** A link that wraps a heading or a paragraph is a card pointing at another page (a teaser), not prose. */
const CARD_BLOCKS = new Set(['p', 'h2', 'h3', 'h4', 'h5', 'h6'])

function visit(el: ElementNode, pass: Pass, depth: number): void {
  for (let i = 0; i < el.children.length; i++) {
    const child = el.children[i]
    if (child === undefined || child.isText || child.gone === pass.run || pass.chosen.has(child)) continue
    if (NAVIGATION_TAGS.has(child.tag) || NAVIGATION_ROLES.has((child.alias ?? child).attrs.role ?? '')) {
      drop(child, 'navigation', pass)
      continue
    }
    if (furnitureOf(child.alias ?? child) === FURNITURE_WORD && child.tag !== 'body' && child.tag !== 'article' && child.tag !== 'main') {
      // A container holding most of the article is never furniture, whatever its class says.
      if (child.textLen < 1500) {
        drop(child, 'furniture-class', pass)
        continue
      }
    }
    if (child.tag === 'a' && child.textLen < 800 && hasDescendant(child, CARD_BLOCKS, pass.run)) {
      drop(child, 'teaser-card', pass)
      continue
    }
    // Measured lengths are from before cleaning: an upper bound, so short blocks are never missed.
    if (BLOCKS.has(child.tag) && child.textLen < 600) {
      const text = liveText(child, pass.run)
      const rule = blockRule(child, text, pass.run)
      if (rule === 'related-section') {
        dropRelatedTail(el, i, pass)
        continue
      }
      if (rule !== null) {
        drop(child, rule, pass, text)
        continue
      }
    }
    if (depth < 200) visit(child, pass, depth + 1)
  }
}

const LEAVES = new Set(['p', 'li', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt', 'dd'])
/** A paragraph of this length, mostly not links, is article prose. */
const PROSE_CHARS = 120

function collectLeaves(el: ElementNode, pass: Pass, out: ElementNode[]): void {
  for (const child of el.children) {
    if (child.isText || child.gone === pass.run || pass.chosen.has(child)) continue
    if (LEAVES.has(child.tag)) out.push(child)
    else collectLeaves(child, pass, out)
  }
}

/** A link written out as its address ("https://nodejs.org/api/…") is a reference the author gives, not a menu entry. */
const BARE_URL = /^(?:https?:\/\/|www\.)\S+$/i
/** Source notes: a footnote or reference list cites its sources with links, and belongs to the article. */
const CITATION = /(?:^|[\s_-])(?:cite|citation|references?|footnotes?|reflist)(?:$|[\s_-])/i

function isCitation(leaf: ElementNode): boolean {
  const subject = leaf.alias ?? leaf
  if (/^cite[_-]note/i.test(subject.attrs.id ?? '')) return true
  for (let n: ElementNode | null = leaf.parent, depth = 0; n !== null && depth < 3; n = n.parent, depth++) {
    if (CITATION.test(markerOf(n.alias ?? n))) return true
  }
  return false
}

/**
 * Link lists before the first and after the last paragraph of prose (category links, tag clouds, "more
 * from" lists) are navigation, whatever their markup.
 */
function dropLinkEdges(roots: ElementNode[], pass: Pass): void {
  const leaves: ElementNode[] = []
  for (const root of roots) if (root.gone !== pass.run && !pass.chosen.has(root)) collectLeaves(root, pass, leaves)
  // Read from the end back to the last paragraph of prose: only what follows it is looked at.
  const tail: Array<{ leaf: ElementNode; text: string }> = []
  let prose = false
  for (let i = leaves.length - 1; i >= 0; i--) {
    const leaf = leaves[i] as ElementNode
    const text = liveText(leaf, pass.run)
    if (text.length >= PROSE_CHARS && linkShare(leaf, pass.run, text.length) < 0.3) {
      prose = true
      break
    }
    tail.push({ leaf, text })
  }
  if (!prose) return
  // tail runs from the page's end backwards.
  let lineFollows = false
  for (const { leaf, text } of tail) {
    if (text.length === 0) continue
    // A heading after the last prose that heads no real line is a label left over from a removed box.
    const danglingHeading = HEADINGS.has(leaf.tag) && !lineFollows
    if (text.length >= 40) lineFollows = true
    if (danglingHeading) drop(leaf, 'link-edge', pass, text)
    else if (linkShare(leaf, pass.run, text.length) >= 0.5 && !BARE_URL.test(text) && !isCitation(leaf)) drop(leaf, 'link-edge', pass, text)
  }
}

/** More than this share of the article found to be boilerplate means a rule misread the page. */
const MAX_DROPPED_SHARE = 0.5

/**
 * Marks in-article boilerplate under `roots` as gone in attempt `run`, recording each drop in `trace`
 * when one is given. `articleLength` is the article's text length before the pass.
 */
export function dropBoilerplate(roots: ElementNode[], run: number, articleLength: number, trace: DroppedBlock[] | null): void {
  const pass: Pass = { run, drops: [], chosen: new Set() }
  // Roots beside the container are judged as blocks too (a sibling the container picked up may be a
  // copyright line), visited as the children of a holder outside the tree; the root holding most of the
  // article is the container itself, and only its content is judged.
  const holder = new ElementNode('div', {})
  for (const root of roots) {
    if (root.gone === run) continue
    if (root.textLen * 2 < articleLength) holder.children.push(root)
    else {
      if (holder.children.length > 0) visit(holder, pass, 0)
      holder.children = []
      visit(root, pass, 0)
    }
  }
  if (holder.children.length > 0) visit(holder, pass, 0)
  dropLinkEdges(roots, pass)
  // Too much found means a rule misread a container that holds the article: the largest drops are
  // given up until the rest is a plausible amount of boilerplate.
  let dropped = pass.drops.reduce((sum, d) => sum + d.text.length, 0)
  const bySize = [...pass.drops].sort((a, b) => b.text.length - a.text.length)
  const spared = new Set<ElementNode>()
  for (const d of bySize) {
    if (dropped <= articleLength * MAX_DROPPED_SHARE) break
    spared.add(d.el)
    dropped -= d.text.length
  }
  for (const d of pass.drops) {
    if (spared.has(d.el)) continue
    d.el.gone = run
    if (trace !== null && trace.length < 200) trace.push({ rule: d.rule, text: d.text.slice(0, 80) })
  }
}
