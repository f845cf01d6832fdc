import type { Emulator } from '../store/registry';
import type { ShopState } from '../store/shop-state';

/** Per-request GraphQL context. `bulk` lifts pagination limits (bulk operations read everything). */
export type Ctx = { emu: Emulator; shop: ShopState; bulk: boolean };
