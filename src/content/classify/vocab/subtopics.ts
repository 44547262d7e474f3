// Curated vocabulary for frequent tier-2/3 nodes, so a page gets a specific leaf category
// (result_taxonomy_leaf_id) rather than only its tier-1.
import type { Vocabulary } from './types.ts'

export const SUBTOPICS: Vocabulary = {
  // Business and Finance
  '58': `marketer^3, digital marketing^3, marketing campaign^3, content marketing^3, advertising^3, advertiser^3, ad^1.5, ads^1.5, programmatic^3, adtech^3, ad tech^3, cpm^3,
    impressions^2, agency^1.5, seo^3, native ad^3, brand awareness^3, influencer marketing^3`,
  '61': `startup^3, founder^2, venture capital^3, seed round^3, accelerator^1.5, incubator^3, unicorn^1.5, angel investor^3`,
  '81': `commodity^3, oil^1.5, crude^2.5, gold price^3, copper^2.5, wheat^2, opec^3, barrel^2`,
  '82': `currency^3, exchange rate^3, forex^3, yen^2.5, euro^1.5, dollar^1.5, devaluation^3`,
  '88': `interest rate^3, rate cut^3, rate hike^3, basis point^3, federal reserve^2.5, central bank^2.5`,
  '89': `unemployment^3, jobless^3, payroll^2, labor market^3, job market^3, layoff^2, jobs report^3`,
  '72': `enterprise software^3, saas^3, crm^3, erp^3, cloud computing^2.5, it department^3`,
  // Technology & Computing
  '602': `software^3, app^2, application^1.5, version^1.5, release^1, install^2, download^2, open source^2.5,
    saas^2.5, browser^2, extension^1.5, plugin^3, feature^0.8`,
  '618': `cybersecurity^3, malware^3, ransomware^3, phishing^3, vulnerability^3, encryption^2.5, hacker^2.5,
    data breach^3, firewall^3, exploit^2, password^2, security researcher^3, zero-day^3`,
  '619': `internet^3, web^2, website^2, browser^2.5, social media^3, search engine^3, broadband^3, isp^3, web page^2.5,
    url^2, http^2, online^1`,
  '631': `programming language^3, javascript^3, python^3, java^2, rust^2, typescript^3, compiler^3, syntax^2.5,
    programmer^2.5, code^1.5, coding^2.5, source code^3, function^1, variable^1.5, library^1`,
  '600': `network^2, networking^3, router^3, wifi^2.5, ethernet^3, bandwidth^3, protocol^2, dns^3, tcp^3`,
  '616': `database^3, data center^3, storage^2.5, backup^2.5, cloud storage^3, sql^3, data warehouse^3, server^2`,
  '635': `smartphone^3, iphone^3, android^2.5, pixel^1.5, galaxy^1, phone^2.5, mobile phone^3, cellphone^3`,
  '630': `laptop^3, macbook^3, chromebook^3, notebook^1, ultrabook^3`,
  '617': `desktop^2.5, desktop pc^3, gaming pc^3, motherboard^3, cpu^2, processor^2, ram^1.5, hard drive^2.5, hard disk^2.5,
    ssd^2.5, power supply^2, overclocking^3, bios^3, pc build^3, imac^3, mac pro^3, mac mini^3`,
  '601': `peripheral^3, printer^3, keyboard^2, mouse^1, monitor^1.5, graphics card^3, video card^3, sound card^3,
    scanner^2.5, webcam^3, usb^1.5, external drive^3, headset^2`,
  // Medical Health and Healthy Living
  '301': `mental health^3, depression^3, anxiety^3, therapist^3, psychiatrist^3, psychologist^3, suicide^2, ptsd^3,
    bipolar^3, schizophrenia^3, counseling^2.5`,
  '297': `virus^2.5, infection^3, infectious^3, outbreak^2.5, epidemic^3, pandemic^3, bacteria^2, plague^3, measles^3,
    flu^2, influenza^3, covid^3, ebola^3, contagious^3, encephalitis^3, mosquito^2`,
  '314': `cancer^3, tumor^3, chemotherapy^3, oncologist^3, oncology^3, leukemia^3, melanoma^3, radiation therapy^3`,
  '322': `vaccine^3, vaccination^3, immunization^3, vaccinate^3, booster shot^3, flu shot^3`,
  '320': `drug^1.5, medication^2.5, prescription^2.5, pill^2.5, dose^2, dosage^3, pharmacy^2.5, fda^2`,
  '311': `addiction^3, overdose^3, opioid^3, meth^3, heroin^3, rehab^3, substance abuse^3, alcoholism^3`,
  '229': `nutrition^3, vitamin^3, protein^2, calorie^2.5, nutrient^3, dietary^2.5`,
  '225': `fitness^3, exercise^3, workout^3, gym^3, yoga^2.5, cardio^3, strength training^3`,
  '231': `weight loss^3, lose weight^3, diet pill^3, obesity^2, dieting^3`,
  // Science
  '390': `weather^3, forecast^2, rain^2, snow^2, storm^2, temperature^1.5, meteorologist^3, heat wave^3, winter storm^3`,
  '468': `gene^3, genetic^3, dna^3, genome^3, crispr^3, mutation^2.5, heredity^3`,
  '465': `biology^3, biologist^3, cell^2, organism^3, species^2, evolution^2, microbe^3, bacteria^2, ecology^2.5,
    zoology^3, zoologist^3, botany^3, botanist^3, wildlife^1.5, mammal^3, amphibian^3, moth^2.5, genus^3, fauna^3,
    vertebrate^3, invertebrate^3, primate^3, larva^3, marine biology^3, plant species^3, flowering plant^3, naturalist^2.5,
    endangered species^3, animal species^3, insect species^3, natural habitat^3, wildlife conservation^3, apex predator^3`,
  '471': `physics^3, physicist^3, quantum^3, particle^2.5, relativity^3, photon^3, simulation^1`,
  // Travel and Attractions
  '672': `flight^2.5, airline^2.5, airport^2.5, plane^2, passenger^1.5, boarding^2.5, frequent flyer^3, layover^3`,
  '668': `hotel^3, motel^3, resort^2, check-in^2`,
  '678': `cruise^3, cruise ship^3, cruise line^3`,
  '155': `museum^3, gallery^2.5, exhibition^2.5, curator^2.5`,
  '160': `national park^3, park^1.5, hiking^2.5, trail^2, wilderness^3`,
  '178': `zoo^3, aquarium^3`,
  // Food & Drink
  '216': `recipe^3, cook^3, cooking^3, oven^2.5, ingredient^2.5, tablespoon^3, teaspoon^3, simmer^3`,
  '211': `wine^3, beer^3, cocktail^3, whiskey^3, vodka^3, brewery^3, winery^3, spirits^1.5`,
  '217': `dessert^3, cake^3, biscuit^2.5, baking^3, pastry^3, chocolate^2, jam^2.5`,
  '218': `restaurant^3, chef^2, menu^2, diner^2, michelin^3, reservation^1.5`,
  // Automotive
  '22': `electric vehicle^3, ev^2.5, hybrid^2, battery^1.5, charging^2, plug-in^3, emissions^1.5`,
  '21': `self-driving^3, autonomous^3, driverless^3, robotaxi^3`,
  // Video Gaming
  '681': `playstation^3, xbox^3, nintendo^3, console^3, switch^1`,
  '682': `esports^3, tournament^1.5, twitch^2, pro gamer^3`,
  '683': `mobile game^3, app store^2.5, ios^1.5`,
  '684': `pc game^3, steam^3, pc^1.5`,
  // Personal Finance
  '414': `stock^3, stocks^3, bond^2.5, equity^2.5, dow^2.5, nasdaq^3, stock market^3`,
  '398': `insurance^3, insurer^3, premium^2, policyholder^3, coverage^1.5, deductible^3`,
  '415': `tax return^3, irs^3, tax^2, deduction^2.5, tax refund^3`,
  '416': `retirement^3, 401k^3, ira^3, pension^3, social security^2.5, retiree^3`,
  '405': `debt^2.5, loan^2, credit card^2.5, mortgage^2, student loan^3`,
  '392': `bank account^3, checking account^3, savings account^3, bank^2, atm^3, overdraft^3`,
  // Religion & Spirituality: each faith's own words, so a prompt or page about one faith names it.
  // Not the holidays Holidays lists (ramadan, diwali, hanukkah): listed on both, "Ramadan" alone read no topic.
  '454': `agnostic^3, agnosticism^3`,
  '456': `astrology^3, astrologer^3, horoscope^3, zodiac^3`,
  '457': `atheist^3, atheism^3, nonbeliever^3, secularist^2.5`,
  '458': `buddhist^3, buddhism^3, buddha^3, dalai lama^3, zen buddhism^3`,
  // Not "bishop" (chess), "gospel" (gospel music) or "evangelical" (evangelical voters are politics).
  '459': `christian^3, christianity^3, church^2, bible^2.5, jesus^3, christ^2.5, catholic^2.5, protestant^3, pope^2.5,
    vatican^2.5, priest^2, pastor^2.5, sermon^2.5, baptism^3, parish^3, diocese^3`,
  '460': `hindu^3, hinduism^3, krishna^3, vedic^3`,
  '461': `muslim^3, islam^3, islamic^2.5, mosque^3, quran^3, imam^3, hajj^3`,
  '462': `jewish^2.5, judaism^3, synagogue^3, rabbi^3, torah^3, passover^2, yom kippur^2`,
  '463': `sikh^3, sikhism^3, gurdwara^3`,
  '455': `spiritual^2.5, spirituality^3`,
  // Home & Garden
  // Nothing holding "garden" (tier 1 has it; phrases with it taught the model a beer garden is
  // Gardening), nor "compost" (farming), "greenhouse" (greenhouse gases), "perennial" (a perennial
  // contender) or "weeding" (its stem is "weed").
  '275': `gardener^3, growing vegetables^3, raised bed^3, seedling^3, pruning^3, mulch^3, potting soil^3,
    flower bed^3, houseplant^3`,
  // Events, family
  '162': `oscars^3, grammys^3, emmys^3, golden globes^3, award show^3, nominee^1`,
  '180': `conference^2.5, expo^3, trade show^3, summit^2, keynote^3, exhibitor^3, ces^3`,
  '185': `comic-con^3, fan convention^3, cosplay^3`,
  '192': `parenting^3, parent^2, toddler^3, child^1.5, kid^1.5, baby^2`,
  // Sports
  '492': `cycling^3, cyclist^3, tour de france^3, peloton^2`,
  '527': `rugby^3, six nations^3, scrum^3`,
  '537': `swimming^3, swimmer^3, freestyle^2.5, backstroke^3, swim meet^3`,
  '540': `marathon^3, sprinter^3, athletics^2, relay^2, hurdles^3`,
  '520': `karate^3, judo^3, taekwondo^3, kung fu^3, mma^2.5`,
  '531': `skiing^3, skier^3, slalom^3`,
  '488': `college football^3, bowl game^3`,
  '487': `ncaa^3, college athletics^3`,
}
