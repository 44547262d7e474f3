// Month names and date labels of the major European languages (and Arabic, Indonesian), as pages write them in bylines and
// datelines. Keys are lower-case without a trailing dot; inflected forms (Polish, Russian, Czech genitives)
// are listed as written because that is how dates appear in running text.
import { escapeRegExp } from '../../platform/regexp.ts'

const MONTH_LIST: Array<[number, string]> = [
  // English
  [1, 'jan january'],
  [2, 'feb february'],
  [3, 'mar march'],
  [4, 'apr april'],
  [5, 'may'],
  [6, 'jun june'],
  [7, 'jul july'],
  [8, 'aug august'],
  [9, 'sep sept september'],
  [10, 'oct october'],
  [11, 'nov november'],
  [12, 'dec december'],
  // German (incl. Austrian Jänner)
  [1, 'januar jänner jän'],
  [2, 'februar'],
  [3, 'märz mrz mär maerz'],
  [5, 'mai'],
  [6, 'juni'],
  [7, 'juli'],
  [10, 'okt oktober'],
  [12, 'dez dezember'],
  // French
  [1, 'janv janvier'],
  [2, 'févr fevr février fevrier'],
  [3, 'mars'],
  [4, 'avr avril'],
  [6, 'juin'],
  [7, 'juil juillet'],
  [8, 'août aout'],
  [9, 'sept septembre'],
  [10, 'octobre'],
  [11, 'novembre'],
  [12, 'déc décembre decembre'],
  // Spanish and Portuguese
  [1, 'enero ene janeiro'],
  [2, 'febrero fevereiro fev'],
  [3, 'marzo março marco'],
  [4, 'abril abr'],
  [5, 'mayo maio'],
  [6, 'junio junho'],
  [7, 'julio julho'],
  [8, 'agosto ago'],
  [9, 'septiembre setiembre setembro set'],
  [10, 'octubre outubro out'],
  [11, 'noviembre novembro'],
  [12, 'diciembre dezembro dic'],
  // Italian
  [1, 'gennaio gen'],
  [2, 'febbraio'],
  [4, 'aprile'],
  [5, 'maggio mag'],
  [6, 'giugno giu'],
  [7, 'luglio lug'],
  [9, 'settembre'],
  [10, 'ottobre ott'],
  [12, 'dicembre'],
  // Dutch
  [1, 'januari'],
  [2, 'februari'],
  [3, 'maart mrt'],
  [5, 'mei'],
  [8, 'augustus'],
  [10, 'oktober'],
  // Swedish, Danish, Norwegian
  [3, 'marts'],
  [8, 'augusti'],
  [5, 'maj'],
  [12, 'desember'],
  // Polish (nominative and genitive)
  [1, 'styczeń stycznia sty'],
  [2, 'luty lutego lut'],
  [3, 'marzec marca'],
  [4, 'kwiecień kwietnia kwi'],
  [5, 'maja'],
  [6, 'czerwiec czerwca cze'],
  [7, 'lipiec lipca lip'],
  [8, 'sierpień sierpnia sie'],
  [9, 'wrzesień września wrz'],
  [10, 'październik października paź'],
  [11, 'listopad listopada lis'],
  [12, 'grudzień grudnia gru'],
  // Czech (genitive)
  [1, 'ledna'],
  [2, 'února'],
  [3, 'března'],
  [4, 'dubna'],
  [5, 'května'],
  [6, 'června'],
  [7, 'července'],
  [8, 'srpna'],
  [9, 'září'],
  [10, 'října'],
  [11, 'listopadu'],
  [12, 'prosince'],
  // Russian and Ukrainian (genitive)
  [1, 'января січня'],
  [2, 'февраля лютого'],
  [3, 'марта березня'],
  [4, 'апреля квітня'],
  [5, 'мая травня'],
  [6, 'июня червня'],
  [7, 'июля липня'],
  [8, 'августа серпня'],
  [9, 'сентября вересня'],
  [10, 'октября жовтня'],
  [11, 'ноября листопада'],
  [12, 'декабря грудня'],
  // Hungarian (written year first: "2020. október 7.")
  [1, 'január'],
  [2, 'február'],
  [3, 'március'],
  [4, 'április'],
  [5, 'május'],
  [6, 'június'],
  [7, 'július'],
  [8, 'augusztus'],
  [9, 'szeptember'],
  [10, 'október'],
  // Romanian
  [1, 'ianuarie'],
  [2, 'februarie'],
  [3, 'martie'],
  [4, 'aprilie'],
  [6, 'iunie'],
  [7, 'iulie'],
  [9, 'septembrie'],
  [10, 'octombrie'],
  [11, 'noiembrie'],
  [12, 'decembrie'],
  // Turkish
  [1, 'ocak'],
  [2, 'şubat'],
  [3, 'mart'],
  [4, 'nisan'],
  [5, 'mayıs'],
  [6, 'haziran'],
  [7, 'temmuz'],
  [8, 'ağustos'],
  [9, 'eylül'],
  [10, 'ekim'],
  [11, 'kasım'],
  [12, 'aralık'],
  // Finnish (partitive, as dates are written: "7. lokakuuta 2020")
  [1, 'tammikuuta'],
  [2, 'helmikuuta'],
  [3, 'maaliskuuta'],
  [4, 'huhtikuuta'],
  [5, 'toukokuuta'],
  [6, 'kesäkuuta'],
  [7, 'heinäkuuta'],
  [8, 'elokuuta'],
  [9, 'syyskuuta'],
  [10, 'lokakuuta'],
  [11, 'marraskuuta'],
  [12, 'joulukuuta'],
  // Greek (genitive, as dates are written)
  [1, 'ιανουαρίου'],
  [2, 'φεβρουαρίου'],
  [3, 'μαρτίου'],
  [4, 'απριλίου'],
  [5, 'μαΐου μαίου'],
  [6, 'ιουνίου'],
  [7, 'ιουλίου'],
  [8, 'αυγούστου'],
  [9, 'σεπτεμβρίου'],
  [10, 'οκτωβρίου'],
  [11, 'νοεμβρίου'],
  [12, 'δεκεμβρίου'],
  // Arabic: the Egyptian/Gulf names and the Levantine ones ("_" stands for a space)
  [1, 'يناير كانون_الثاني'],
  [2, 'فبراير شباط'],
  [3, 'مارس آذار'],
  [4, 'أبريل ابريل إبريل نيسان'],
  [5, 'مايو أيار'],
  [6, 'يونيو يونية حزيران'],
  [7, 'يوليو يولية تموز'],
  [8, 'أغسطس اغسطس آب'],
  [9, 'سبتمبر أيلول'],
  [10, 'أكتوبر اكتوبر تشرين_الأول'],
  [11, 'نوفمبر تشرين_الثاني'],
  [12, 'ديسمبر كانون_الأول'],
  // Indonesian and Malay (the others are written as in Dutch, German or English); Malay "mac" (March)
  // is left out: it is a computer as often
  [3, 'maret'],
  [8, 'agustus ogos'],
  [12, 'disember'],
  // Croatian/Serbian genitives are left out: "listopada" is October there and November in Polish.
]

export const MONTHS: ReadonlyMap<string, number> = (() => {
  const map = new Map<string, number>()
  for (const [n, words] of MONTH_LIST) for (const w of words.split(' ')) if (!map.has(w.replace(/_/g, ' '))) map.set(w.replace(/_/g, ' '), n)
  return map
})()

/** Alternation of every month name, longest first so "sept" never shadows "september". */
export const MONTH_ALTERNATION = [...MONTHS.keys()]
  .sort((a, b) => b.length - a.length)
  .map(escapeRegExp)
  .join('|')

export function monthNumber(name: string): number {
  return MONTHS.get(name.toLowerCase().replace(/\.$/, '')) ?? 0
}

/** Words that introduce the original publication date, in the languages above. */
export const PUBLISHED_LABEL =
  /(?:published|posted|submitted|gespeichert von .{1,40} am|written|released|created|date|veröffentlicht|erschienen|publiziert|erstellt|datum|publié|publiée|mis en ligne|publicado|publicada|publicación|fecha|pubblicato|pubblicata|data|gepubliceerd|geplaatst|opublikowano|publikacja|dodano|publicerad|publiceret|publisert|zveřejněno|опубликовано|опубліковано|дата)\s*(?:on|am|le|el|em|il|op|dnia|:)?\s*:?\s*$/iu

/**
 * Verb-final publication statements (German, Dutch) name the date before the verb: "wurde am 3. Dezember
 * 2011 um 14:48 Uhr veröffentlicht", "am 07.08.2013 um 09:07 Uhr gespeichert", "op 3 december 2019
 * gepubliceerd". Tested on the text right after a date: a time or a name may stand between, no sentence end.
 */
export const PUBLISHED_AFTER =
  /^(?:[^.!?]|\.(?=\d)){0,30}?(?:veröffentlicht|geschrieben|gepostet|publiziert|verfasst|erstellt|gespeichert|gepubliceerd|geplaatst)(?!\p{L})/iu

/**
 * Dates that are someone else's, by the words around them: a social embed's attribution ("A post shared
 * by Spice Girls (@spicegirls) on Jun 16, 2019", "— Name (@handle) June 16, 2019"), tested on the text
 * just before a date, and a comment's signature ("Berita Islami, on Desember 30, 2015 at 4:36 am said:",
 * "… um 10:12 Uhr sagte:"), tested on the text just after it.
 */
export const EMBED_BEFORE = /(?:\bpost shared by\b\D{0,80}|\(@\w{1,30}\)\s*(?:on\s*)?)$/isu
export const COMMENT_AFTER =
  /^\s*(?:,\s*)?(?:(?:at|um|à|a las|alle|om|o)\s+\d{1,2}[:.h]\d{2}\s*(?:[ap]\.?\s?m\.?|uhr|h)?\s*)?(?:said|says|wrote|schrieb|sagte|sagt|meint|a dit|a écrit|dijo|escribió|ha detto|ha scritto|schreef|zegt|napisał)\s*:/iu

const READ_MORE = 'weiterlesen|read more|continue reading|mehr lesen|lire la suite|leer más|leggi tutto|lees meer|czytaj dalej'

/** A teaser card's "read more" link right before a date: the date is the linked article's. */
export const READ_MORE_BEFORE = new RegExp(`(?:${READ_MORE})\\s*[»›>→…]*\\s*$`, 'iu')

/** The same link right after its date ("5. Juli 2018 ⏎ read more"). */
export const READ_MORE_AFTER = new RegExp(`^\\s*(?:${READ_MORE})(?!\\p{L})`, 'iu')

/**
 * A bare "more" after a date ("20.11.2020 ⏎ Mehr"): a card's link only when it is a block of its own,
 * which the caller checks ("20. Mai 2020 mehr als …" is prose).
 */
export const BARE_MORE_AFTER = /^(\s*)(?:mehr|more|plus|más|altro|meer)(?:\s*[»›>→…]+)?/iu

/**
 * A span of days is an event's (an exhibition, a festival, opening hours), not the page's date. The end
 * of a short span, "9-23 Feb 2017" or "vom 9. bis 23. Februar", is told by the smaller day before it
 * (the caller compares): not a time ("14:30 – " or "14.30 – " before a dateline), not an episode's or an
 * issue's number ("Folge 12 – 3. März 2020"). A span of two full dates is told by what stands between.
 */
const SPAN_JOIN = '[-–—]|\\b(?:bis|to|until|au|al|tot)\\b'
export const SPAN_END_BEFORE = new RegExp(`(?<![\\d:.])(\\d{1,2})\\.?\\s*(?:${SPAN_JOIN})\\s*$`, 'iu')
export const SPAN_BETWEEN = new RegExp(`^\\s*(?:${SPAN_JOIN})\\s*$`, 'iu')

/**
 * Labels of a date that is a product's, an event's or an offer's, not the page's: a game's "Release:",
 * an application's "Deadline:", a voucher's "gültig bis". A press, news or media release's date is its own.
 */
export const OTHERS_LABEL =
  /(?:(?<!(?:press|news|media)[\s-]?)\brelease(?:\s*date)?|release-?datum|erscheinungstermin|event date|veranstaltungsdatum|deadline|einsendeschluss|anmeldeschluss|bewerbungsschluss|date limite|fecha límite|scadenza|valid until|gültig bis|expires?(?:\s+on)?|ablaufdatum)\s*:?\s*$/iu

/** Words that introduce a last-updated date. */
export const UPDATED_LABEL =
  /(?:updated|last modified|modified|revised|last edited|edited|zuletzt bearbeitet|bearbeitet|dernière modification|última modificación|ultima modifica|aktualisiert|aktualisierung|zuletzt geändert|geändert|stand|mis à jour|mise à jour|actualización|aggiornamento|modifié|actualizado|actualizada|atualizado|aggiornato|aggiornata|bijgewerkt|gewijzigd|zaktualizowano|aktualizacja|uppdaterad|opdateret|oppdatert|aktualizováno|обновлено|оновлено)\s*(?:on|am|le|el|em|il|op|:)?\s*:?\s*$/iu
