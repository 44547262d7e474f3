// Curated vocabulary for the GARM-derived "Sensitive Topics" branch. These feed the separate
// `sensitive` output (brand safety), never the topical ranking.
import type { Vocabulary } from './types.ts'

export const SENSITIVE: Vocabulary = {
  Rm3SiT: `porn^3, pornography^3, pornographic^3, explicit^1, nude^2.5, nudity^2.5, sex^1.5, sexual^1.5, erotic^3, xxx^3`,
  avbNf2: `gun^2, guns^2, firearm^3, rifle^3, ammunition^3, ammo^3, handgun^3, pistol^2.5, weapon^2, assault rifle^3`,
  XtODT3: `murder^2, rape^3, assault^1.5, abuse^2, kidnapping^2.5, trafficking^2.5, torture^3, human rights abuse^3,
    homicide^2, stabbing^2, shooting^1.5, violence^2, violent^2`,
  I4GWl6: `death^1.5, dead^1.2, killed^2, died^1, fatal^2, injury^1, injured^1.5, wounded^2, casualties^2.5, corpse^3,
    war^1.5, military^1, airstrike^3, bombing^2.5, death toll^3`,
  Z7rJBM: `abortion^3, gun control^2.5, immigration^1, racism^2.5, racist^2.5, transgender^2, same-sex^2, euthanasia^3,
    death penalty^3, capital punishment^3, affirmative action^3, white supremacy^3`,
  HxqYV1: `hate speech^3, hate crime^3, slur^2.5, bigotry^3, extremist^2.5, harassment^2, bullying^2, neo-nazi^3, nazi^2`,
  pg0WhF: `drug^1, drugs^1.5, cocaine^3, heroin^3, meth^3, marijuana^2.5, cannabis^2.5, weed^1.5, opioid^2, fentanyl^3,
    tobacco^3, cigarette^3, smoking^1.5, vaping^3, vape^3, e-cigarette^3, juul^3, alcohol^2, beer^1, liquor^2.5, drunk^2.5`,
  j9PaO9: `fuck^3, shit^3, bitch^3, profanity^3, obscene^3, damn^1`,
  mm3UXx: `piracy^3, pirated^3, torrent^3, bootleg^2.5, crack^0.5, warez^3, illegal download^3`,
  '6i4dB6': `spam^3, phishing^3, scam^2, malware^2, clickbait^3, fake news^2, misinformation^2.5, disinformation^2.5`,
  '8FD8nI': `terrorism^3, terrorist^3, terror attack^3, jihadist^3, isis^2.5, al qaeda^3, extremism^2.5, suicide bomber^3`,
}
