import { describe, expect, it } from 'vitest'
import { classifierLanguages, classifyPage, primaryLeaf } from '../../../src/content/classify/index.ts'
import { getNode, tier1Of } from '../../../src/content/taxonomy/taxonomy.ts'

const topTier1 = (title: string, text: string): string | undefined => {
  const r = classifyPage({ title, text })
  const first = r.categories.find((c) => getNode(c.id)?.tier === 1)
  return first && getNode(first.id)?.name
}

describe('classifyPage on short handmade texts', () => {
  const cases: [string, string, string][] = [
    [
      'Sports',
      'Late winner seals derby',
      'The striker scored in stoppage time and the home team climbed to second in the league table. The coach praised the goalkeeper after the match.',
    ],
    [
      'Food & Drink',
      'Weeknight lemon chicken',
      'Season the chicken, then roast it in the oven with garlic, butter and lemon. Serve with a green salad; the recipe takes 40 minutes and two tablespoons of olive oil.',
    ],
    [
      'Personal Finance',
      'How to pay off your credit card',
      'Build a budget, keep an emergency savings account and pay more than the minimum on the credit card with the highest APR. Your credit score will thank you.',
    ],
    [
      'Automotive',
      'The new hybrid SUV, driven',
      'The SUV pairs a turbocharged engine with an electric motor for 300 horsepower. The sedan version gets better mpg, and both come with a heated steering wheel.',
    ],
    [
      'Travel',
      'Three days in Lisbon',
      'Book a hotel near the old town, take the tram to the castle and plan a day trip to the beach. Our itinerary covers flights, luggage tips and where tourists should go.',
    ],
    [
      'Medical Health',
      'What to know about type 2 diabetes',
      'Doctors say symptoms include thirst and fatigue. Diagnosis needs a blood test, and treatment may include medication such as insulin. Patients should see a physician.',
    ],
    [
      'Politics',
      'Senate passes the spending bill',
      'Senators voted 60 to 40 after Democrats and Republicans reached a bipartisan deal. The president is expected to sign the legislation; the governor of Ohio criticised it.',
    ],
    [
      'Technology & Computing',
      'Rust 2.0 released',
      'The new compiler release speeds up builds, and the open source project ships a faster package manager for programmers. Download it for Linux, macOS or Windows.',
    ],
    [
      'Video Gaming',
      'Review: the new Zelda',
      'Nintendo’s open-world adventure is the best Switch game this year. The gameplay loop, dungeons and boss fights will keep gamers busy for 60 hours on the console.',
    ],
    [
      'Pets',
      'Bringing a puppy home',
      'Your new dog needs a vet check, a leash, a crate and quality pet food. Puppies of every breed should be socialised with other dogs and cats early.',
    ],
    [
      'Real Estate',
      'Renting vs buying',
      'Landlords raised rent again, so more tenants consider buying a condo. A realtor says listings under 800 square feet sell fastest, and mortgage rates matter.',
    ],
    [
      'Crime',
      'Suspect arrested after robbery',
      'Police arrested a suspect after an armed robbery at a petrol station. The man was charged with assault and remains in custody; detectives are looking for a second suspect.',
    ],
    [
      'Science',
      'Telescope spots a distant galaxy',
      'Astronomers using the space telescope found a galaxy 13 billion light years away. The physicists say the discovery tests theories about how the early universe formed.',
    ],
    [
      'Style & Fashion',
      'Spring fashion trends',
      'Designers sent oversized jackets, wide-leg jeans and chunky sneakers down the runway at fashion week. Pair the outfit with a leather handbag.',
    ],
  ]
  for (const [want, title, text] of cases) {
    it(`puts ${want} first`, () => {
      expect(topTier1(title, text)).toBe(want)
    })
  }
})

describe('classifyPage on words that change topic in a phrase', () => {
  it('reads a stock car race as Auto Racing, not as stocks', () => {
    const r = classifyPage({
      title: 'Stock car season opens at Interlagos',
      text: 'The stock car championship opens this weekend at Interlagos. Thirty stock cars start the race, and last season’s champion drives for a new team after a winter of testing.',
      url: 'https://example.com/motorsport/season-opener',
    })
    const ids = r.categories.map((c) => c.id)
    expect(ids).toContain(518) // Auto Racing
    expect(ids).not.toContain(414) // Stocks and Bonds
    expect(ids).not.toContain(410) // Personal Investing
  })
})

describe('classifyPage on computer hardware', () => {
  it('reads a PC build as Desktops and a printer review as Computer Peripherals', () => {
    const build = classifyPage({
      title: 'How to build a gaming PC',
      text: 'Pick a motherboard that fits your processor, then add RAM, a fast SSD and a graphics card. The power supply must carry the GPU, and a good case keeps the CPU cool when overclocking.',
    })
    expect(build.categories.map((c) => c.id)).toContain(617) // Desktops
    const printer = classifyPage({
      title: 'The best laser printer for a home office',
      text: 'This printer connects over USB or wifi, scans to PDF with its flatbed scanner and prints 30 pages a minute. Its toner lasts; pair it with a wireless keyboard and a second monitor for a tidy desk.',
    })
    expect(printer.categories.map((c) => c.id)).toContain(601) // Computer Peripherals
  })
})

describe('classifyPage on faiths', () => {
  it.each([
    [
      'Ramadan begins',
      'Muslims around the world began fasting for Ramadan on Monday. The imam of the city mosque said the nightly prayers will be held in the courtyard, and families will break the fast together after sunset, reading the Quran.',
      461, // Islam
    ],
    [
      'The bishop visits the parish',
      'The bishop of the diocese celebrated Mass at the parish church on Sunday. In his sermon he spoke of the gospel and of Christ, and the pastor thanked the congregation for the baptism of twelve children this year.',
      459, // Christianity
    ],
    [
      'Passover at the synagogue',
      'The rabbi invited the community to the synagogue for the Passover seder. Jewish families read from the Torah and the Haggadah, and the congregation prepared for Yom Kippur in the autumn.',
      462, // Judaism
    ],
  ])('reads %j under Religion & Spirituality and its faith', (title, text, faith) => {
    const ids = classifyPage({ title, text }).categories.map((c) => c.id)
    expect(ids).toContain(453)
    expect(ids).toContain(faith)
  })
})

describe('classifyPage on wildlife and plant life', () => {
  // IAB files zoology and botany under Science > Biological Sciences; Pets is for animals kept at home.
  it('reads a species article, a wildlife report and a plant article as Biological Sciences', () => {
    const moth = classifyPage({
      title: 'Hypena proboscidalis',
      text: 'Hypena proboscidalis, the snout, is a moth of the family Erebidae. It is found in Europe. The wingspan is 35 mm. The larvae feed on nettle. The genus includes about two hundred moths, and the adults fly at night.',
    })
    expect(moth.categories.map((c) => c.id)).toContain(465) // Biological Sciences
    const wildlife = classifyPage({
      title: 'Wolves return to the valley',
      text: 'Wildlife officers counted twelve wolves this winter. The predators are thinning the deer herds, and rangers say the habitat now supports beetles, amphibians and birds that had vanished. The fauna of the valley is recovering, a zoologist said.',
    })
    expect(wildlife.categories.map((c) => c.id)).toContain(465)
    expect(wildlife.categories.map((c) => c.id)).not.toContain(422) // Pets
    const plant = classifyPage({
      title: 'Silene acaulis',
      text: 'Silene acaulis, moss campion, is a flowering plant of the genus Silene, found on mountain tundra across the Arctic. The botanist who named it found it on high ridges; it grows in low cushions, and its pink flowers open in the short summer beside mosses and lichens.',
    })
    expect(plant.categories.map((c) => c.id)).toContain(465)
  })

  // The words of wildlife are specific ones: a garden's beetles, a pet spider, a game or a film named
  // for an animal stay what they are.
  it.each([
    [
      'Garden pests: aphids and beetles',
      'Aphids and beetles chew the leaves of your roses and beans. Spray the plants with soapy water, pick beetles off by hand in the morning, and plant marigolds to bring ladybirds into the vegetable garden. Mulch the beds and water at the roots.',
      'Home & Garden',
    ],
    [
      'How to keep a pet tarantula',
      'A pet tarantula needs a small glass tank, a hide and a shallow water dish. Feed your spider crickets once a week and keep the enclosure warm. Handle it rarely: this pet is for watching. Ask the pet shop about substrate and a heat mat.',
      'Pets',
    ],
    [
      'Animal Crossing update',
      'The new Animal Crossing update adds fishing tournaments, new furniture and a cafe on your island. Players on the Nintendo Switch can download the patch tonight; villagers get new dialogue and the game fixes a save bug.',
      'Video Gaming',
    ],
    [
      'Predator review',
      'The new Predator film is a tense sci-fi action movie: the director keeps the hunt in the forest, the cast is strong and the score builds. At the box office it opened second; the sequel sets up the franchise.',
      'Entertainment',
    ],
  ])('keeps %j under its own topic', (title, text, topic) => {
    const r = classifyPage({ title, text })
    expect(getNode(r.categories[0]!.id)?.name).toBe(topic)
    expect(r.categories.map((c) => c.id)).not.toContain(465)
  })
})

describe('classifyPage on British and European usage', () => {
  it("reads Westminster's words as Politics: MPs, the Home Secretary, the Chancellor of the Exchequer", () => {
    // Short on purpose: these words alone must carry the topic ("MPs" read as Medical Health, "Home
    // Secretary" as Home & Garden and "Chancellor" as Education before they were in the vocabulary).
    expect(topTier1('', 'MPs backed the shadow home secretary.')).toBe('Politics')
    expect(topTier1('', 'The Home Secretary answered MPs in the House of Commons.')).toBe('Politics')
    expect(topTier1('', 'The Chancellor of the Exchequer spoke in Downing Street.')).toBe('Politics')
  })

  it('reads British holidays (a city break, a staycation, a package holiday) as Travel, and Christmas as Holidays', () => {
    expect(topTier1('', 'Our pick of city breaks and weekend breaks in European capitals.')).toBe('Travel')
    expect(topTier1('', 'Staycations in Cornwall: the best holiday cottages and caravan holidays.')).toBe('Travel')
    expect(topTier1('', 'Package holidays to Spain and cheap flights with easyJet and Jet2 for holidaymakers.')).toBe('Travel')
    expect(topTier1('', 'Christmas holidays: gift ideas and decorations for the festive season.')).not.toBe('Travel')
  })

  it('reads royal news as Pop Culture, where IAB files celebrities', () => {
    // Style & Fashion (0.31) and Personal Celebrations (0.21) before the royals were in the vocabulary.
    expect(topTier1('', 'Royals gather for the Jubilee: Prince William and Kate Middleton wave from the balcony.')).toBe('Pop Culture')
    const wedding = classifyPage({
      title: '',
      text: 'Kensington Palace confirmed that Prince William and the Princess of Wales will attend the royal wedding in June.',
    })
    expect(wedding.categories.find((c) => c.id === 432)?.score ?? 0).toBeGreaterThan(0.8)
  })

  it('reads football as soccer as well as American football, and the Premier League as soccer', () => {
    const soccer = 533
    const american = 484
    const league = classifyPage({
      title: 'Premier League: late winner lifts Villa',
      text: 'A stoppage-time winner from the striker gave Aston Villa victory, and a clean sheet for the goalkeeper, as the Premier League leaders dropped points against a side fighting relegation.',
    })
    expect(league.categories.map((c) => c.id)).toContain(soccer)
    expect(league.categories.map((c) => c.id)).not.toContain(american)
    const nfl = classifyPage({
      title: 'Chiefs edge Bills in overtime',
      text: 'The quarterback threw for 300 yards and two touchdowns as the NFL champions won in overtime; the linebacker sealed the football game with an interception.',
    })
    expect(nfl.categories.map((c) => c.id)).toContain(american)
  })
})

describe('classifyPage output', () => {
  const page = {
    title: 'Champions League: Real Madrid beat Bayern in the semifinal',
    text: 'Real Madrid reached the Champions League final after beating Bayern 2-1. The striker scored twice, and the coach said the fans in the stadium carried the team through the second half.',
    url: 'https://example.com/sport/football/champions-league-semifinal',
  }

  it('returns several categories, sorted, each above the threshold and no higher than its parent', () => {
    const r = classifyPage(page)
    expect(r.classified).toBe(true)
    expect(r.categories.length).toBeGreaterThan(1)
    const scores = r.categories.map((c) => c.score)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
    for (const c of r.categories) {
      expect(c.score).toBeGreaterThanOrEqual(0.1)
      expect(c.score).toBeLessThanOrEqual(1)
      const node = getNode(c.id)
      expect(node).toBeDefined()
      const parent = r.categories.find((p) => p.id === node?.parent_id)
      if (node?.parent_id != null) expect(parent?.score ?? 0).toBeGreaterThanOrEqual(c.score)
    }
    expect(r.categories[0]?.id).toBe(483)
    expect(r.categories.map((c) => c.id)).toContain(533)
  })

  it('names the most specific category of the best branch as the leaf', () => {
    expect(primaryLeaf(classifyPage(page))).toBe(533)
    expect(primaryLeaf(classifyPage({ title: '', text: '' }))).toBeNull()
  })

  it('honours a custom threshold', () => {
    const loose = classifyPage(page, { threshold: 0.01 }).categories
    const strict = classifyPage(page, { threshold: 0.5 }).categories
    expect(loose.length).toBeGreaterThan(strict.length)
    expect(strict.every((c) => c.score >= 0.5)).toBe(true)
  })

  it('never returns media genres or sensitive topics as topical categories', () => {
    const r = classifyPage({
      title: 'Terror attack',
      text: 'The terrorist attack killed 12 people; police said the gunman used an assault rifle. The war drama documentary comedy.',
    })
    const roots = new Set(r.categories.map((c) => tier1Of(c.id)?.name))
    expect(roots.has('Sensitive Topics')).toBe(false)
    expect(roots.has('Genres')).toBe(false)
    expect(r.sensitive.map((c) => getNode(c.id)?.name)).toEqual(expect.arrayContaining(['Terrorism']))
  })

  it('flags no sensitive topic on a benign page', () => {
    expect(classifyPage(page).sensitive).toEqual([])
  })
})

describe('classifyPage refuses what it cannot read', () => {
  it.each([
    ['empty', '', ''],
    ['whitespace', '  ', '\n\t '],
    ['keyboard mash', 'asdf qwer', 'zxcv uiop hjkl qwerty asdfgh zxcvbn lkjhg poiuy'],
    [
      'lorem ipsum',
      'Lorem ipsum',
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.',
    ],
    ['numbers and symbols', '404', '1234 5678 !!! ??? $$$ 42 %%% 3.14159 ### @@@'],
    ['function words only', 'the', 'and the of to in it is was for on that with as he she they we you'],
  ])('%s → classified false', (_name, title, text) => {
    const r = classifyPage({ title, text })
    expect(r.classified).toBe(false)
    expect(r.categories).toEqual([])
  })

  it('asks more evidence from a page in another language', () => {
    // Two English loan words: enough for an English page, too little for a Portuguese one.
    const page = { title: '', text: 'O novo orçamento: o minister falou com o president sobre o assunto.' }
    expect(classifyPage({ ...page, language: 'en' }).classified).toBe(true)
    expect(classifyPage({ ...page, language: 'pt' }).classified).toBe(false)
  })

  it("reads the big topics in six European languages, each page with its own language's words only", () => {
    const pt = {
      title: 'Rodada decisiva do campeonato',
      text: 'O treinador elogiou os jogadores depois da vitória no estádio: três gols, a torcida em festa e o clube na liderança da temporada de futebol.',
    }
    expect(classifyPage({ ...pt, language: 'pt' }).categories[0]?.id).toBe(483) // Sports
    // The same words on a page said to be English are no evidence: English pages read English lists only.
    expect(classifyPage({ ...pt, language: 'en' }).classified).toBe(false)
    const de = {
      title: 'Koalition streitet über den Haushalt',
      text: 'Die Bundesregierung und die Opposition im Bundestag ringen um den Gesetzentwurf; der Kanzler verteidigt die Koalition vor den Wahlen, die Parteien werben um Wähler.',
    }
    expect(classifyPage({ ...de, language: 'de' }).categories[0]?.id).toBe(386) // Politics
    expect([...classifierLanguages]).toEqual(['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'])
  })
})
