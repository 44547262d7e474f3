// Function words, and words so common in web articles (and in buyer prompts) that alone they say
// nothing about the topic. Both lists hold surface forms (matched before stemming).
const FUNCTION_WORDS = `a about above after again against all almost along already also although am among an and another any
anybody anyone anything are aren around as at be became because become been before being below between both but by can
cannot could couldn did didn do does doesn doing don done down during each either else enough etc even ever every
everyone everything few for from further had hadn has hasn have haven having he her here hers herself him himself his how
however i if in into is isn it its itself just least less let like likely many may maybe me might mine more most much
must my myself neither never no nobody none nor not nothing now of off often on once one only onto or other others
otherwise our ours ourselves out over own per quite rather really same she should shouldn since so some somebody
someone something sometimes soon still such than that the their theirs them themselves then there these they thing
things this those though through throughout thus to together too toward towards under until up upon us very via was
wasn we were weren what whatever when whenever where whether which while who whoever whole whom whose why will with
within without won would wouldn yet you your yours yourself yourselves ll ve re s t d m`

const GENERIC_WORDS = `according actually add added ago ahead around asked away back best better big called came come comes
coming day days did different does early end especially get gets getting give given go goes going good got great
happen happened help high important including instead just keep know known large last late later lot lots made make
makes making mean means ms mr mrs need needs new news next old part past people percent place point put read really
recent recently right said say saying says see seem seen set several show shows side small start started still story
sure take taken takes talk tell thing think three time times today told took top two try turn use used uses using want
wanted way ways week weeks well went year years yes yesterday work working world look looking find found long little
able across already available based began begin believe certain change changes clear close continue continued
current different does enough example fact far feel following full general got group half hard head hold however idea
issue kind less level line live looks making matter million billion minutes month months number open order plan
possible probably real reason report reported run says second seems simply single sort stay step taking thought
today true trying type whole words write wrote yet click share comment comments subscribe newsletter cookie cookies
advertisement sign login log email print copyright reserved
privacy terms related updated update published posted image images photo photos getty via
interested readers reader audience audiences fans fan followers people users user looking
following follow follows engaged savvy enthusiasts enthusiast lovers lover com org`

const set = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean))

/** Dropped from the token stream before anything else. */
export const FUNCTION_WORD_SET = set(FUNCTION_WORDS)
/** Kept in the stream so phrases such as "world cup" or "home run" still match, but never evidence on their own. */
export const GENERIC_WORD_SET = set(GENERIC_WORDS)

/**
 * The function words of the other languages the classifier reads (vocab/european.ts), folded as
 * words() gives them (no diacritics): a prompt read in one of them ignores its own (prompt-language.ts).
 * Pages are not read with them.
 */
export const FUNCTION_WORDS_BY_LANGUAGE: Readonly<Record<'de' | 'fr' | 'es' | 'it' | 'pt' | 'nl', ReadonlySet<string>>> = {
  de: set(`der die das den dem des ein eine einer einem einen eines und oder aber nicht kein keine keinen mit von vom zu zum zur
    fur auf aus bei beim nach uber unter vor im an am um als wie auch nur noch schon sehr ist sind war waren wird werden hat
    haben sich sie er es wir ihr ich du man dass wer was wo wenn weil bis durch gegen ohne alle allen aller alles mehr viel
    viele ihre ihren seine sein seinen diese dieser dieses jede jeden`),
  fr: set(`le la les l un une des du de d et ou mais pas ne ni sur sous dans en avec sans pour par au aux ce cet cette ces qui
    que qu quoi dont est sont etre ont il elle ils elles nous vous je tu on se sa son ses leur leurs plus tres tout tous
    toute toutes comme entre chez`),
  es: set(`el la los las lo un una unos unas de del al y o u e pero no ni en con sin por para sobre entre hasta desde que quien
    como cuando donde es son ser esta estan este estos estas ese esa su sus se le les mas muy todo todos toda todas`),
  it: set(`il lo la i gli le un uno una di del della dello dei degli delle da dal dalla dai in nel nella nei con su sul sulla per
    tra fra e ed o ma non che chi come quando dove sono essere questo questa questi queste quello quella suo sua suoi sue si
    piu molto tutto tutti tutta tutte al alla ai agli`),
  pt: set(`o a os as um uma uns umas de do da dos das no na nos nas em com sem por para pelo pela e ou mas nao que quem como
    quando onde sao ser este esta estes estas esse essa seu sua seus suas se mais muito todo todos toda todas ao aos`),
  nl: set(`de het een en of maar niet geen met van voor op in aan bij naar uit over onder tot door als dan ook nog zijn is was
    waren wordt worden heeft hebben zich ze hij zij wij we ik je u dat die dit deze wat wie waar wanneer omdat alle meer
    veel hun haar`),
}
