import type { GraphQLSchema } from 'graphql';
import type { Emulator } from '../store/registry';
import type { ShopState } from '../store/shop-state';

/**
 * Per-request GraphQL context. `bulk` lifts pagination limits (bulk operations read everything);
 * `schema` is the published schema of the request's API version (absent outside GraphQL requests).
 */
export type Ctx = { emu: Emulator; shop: ShopState; bulk: boolean; schema?: GraphQLSchema };
