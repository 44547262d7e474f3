import type { AppContext } from '../platform/context.ts'
import type { ClickSigner } from './clicks/signing.ts'

/** What pixel code needs: the platform plus the signer of click-tracking links. */
export interface PixelContext extends AppContext {
  clickSigner: ClickSigner
}
