// Curated vocabulary: science, medical health, healthy living.
import type { Vocabulary } from './types.ts'

export const SCIENCE: Vocabulary = {
  '464': `science^2.5, scientific^2.5, scientist^2.5, research^1.5, researcher^2, study^1, studies^1, experiment^2,
    laboratory^2, lab^1, physics^3, physicist^3, chemistry^3, chemist^3, chemical^1.5, biology^3, biologist^3,
    molecule^2.5, molecular^2.5, atom^2.5, particle^2, quantum^2, theory^1.2, hypothesis^2.5, evolution^2, species^2.5,
    fossil^3, dinosaur^3, ecosystem^2.5, climate^2, climate change^3, global warming^3, carbon dioxide^2.5, emission^1.5,
    environment^1.5, environmental^2, pollution^2, ocean^1.5, astronomy^3, astronomer^3, telescope^3, planet^2.5,
    galaxy^3, star^0.5, nasa^2.5, spacecraft^3, space station^3, orbit^2.5, asteroid^3, mars^2, moon^1.2, universe^2,
    geology^3, mathematics^2.5, mathematician^3, equation^2, genome^3, gene^2.5, genetic^2.5, dna^2.5, cell^1,
    neuroscience^2.5, peer review^2.5, journal^1, nature^0.5, discovery^1, data^0.3, weather^2, forecast^0.5,
    temperature^1.2, rainfall^2, meteorologist^3, glacier^2.5, animal^0.8, plant^0.8, bacteria^1.5, algae^2.5`,
  '472': `space^1.2, astronaut^3, rocket^2, launch^0.8, spacex^2.5, satellite^1.5, solar system^3, black hole^3`,
  '467': `environment^2, carbon^1.5, renewable^1.5, sustainability^2, conservation^2, deforestation^3, biodiversity^3,
    recycling^2, plastic^1, air quality^2.5, air pollution^3`,

  '286': `health^1.5, medical^2.5, medicine^2, doctor^2, physician^2.5, patient^2.5, hospital^2.5, clinic^2, clinical^2.5,
    nurse^2, disease^2.5, illness^2.5, symptom^2.5, diagnosis^2.5, diagnose^2.5, treatment^2, therapy^1.5, drug^1.2,
    medication^2.5, prescription^2.5, pharmaceutical^1.5, vaccine^2.5, vaccination^3, virus^2, infection^2.5,
    infectious^2.5, cancer^3, tumor^3, diabetes^3, heart disease^3, cardiovascular^3, stroke^1.5, blood pressure^2.5,
    cholesterol^2.5, alzheimer^3, dementia^3, depression^2, anxiety^1.5, mental health^3, surgery^2.5, surgeon^3,
    chronic^2, outbreak^2, epidemic^2.5, pandemic^2.5, flu^2.5, covid^2.5, coronavirus^2.5, opioid^2.5, addiction^2,
    overdose^2.5, fda^2.5, cdc^2.5, healthcare^2, health care^2.5, public health^2.5, antibiotic^2.5, immune^2,
    pain^1, injury^1.5, disorder^1.5, syndrome^2, condition^0.5, mortality^1.5, obesity^2, allergy^2.5, asthma^3,
    dental^2, autism^2.5, blood^1, organ^1, brain^1, lung^2, liver^2, kidney^2, pregnancy^1.5, hiv^3, medicare^2, medicaid^2`,
  '223': `healthy^2.5, wellness^3, fitness^2.5, exercise^2.5, workout^3, gym^2.5, diet^2, nutrition^3, nutritional^2.5,
    nutrient^2.5, vitamin^2.5, protein^1.5, calorie^2.5, weight loss^3, lose weight^3, yoga^3, meditation^2.5,
    mindfulness^3, sleep^1.5, stress^1, jogging^3, lifestyle^1, wellbeing^3, self-care^3,
    supplement^2, smoking^1.5, quit smoking^3, habit^1.2, healthy eating^3, heart rate^2`,
}
