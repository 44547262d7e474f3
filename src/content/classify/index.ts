export {
  type ClassifyOptions,
  classifierLanguages,
  classifyAnalysis,
  classifyPage,
  type PageClassification,
  type PageInput,
  primaryLeaf,
  type ScoredCategory,
} from './classify-page.ts'
export {
  categoriesForPrompt,
  classifyAndEmbed,
  type Embedding,
  embedPage,
  embedQuery,
  promptRelevance,
  type QueryRepresentation,
  representQuery,
  similarity,
  themeSimilarity,
} from './embed.ts'
