export { classifyPage, classifyAnalysis, primaryLeaf, type ClassifyOptions, type PageClassification, type PageInput, type ScoredCategory } from './classify-page.ts'
export { categoriesForPrompt, classifyAndEmbed, embedPage, embedQuery, promptRelevance, representQuery, similarity, type Embedding, type QueryRepresentation } from './embed.ts'
