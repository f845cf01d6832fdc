// `is_old` / `idOld` = 1 means this installation lacks an
// access scope the product now needs (or was flagged old before the scopes were tracked). Granting the
// scopes through 'Authorise app' stores the new grant and clears both causes.
import type { ShopRow } from '../db/shops';
import { missingScopes } from './oauth';

export function isOldInstall(shop: Pick<ShopRow, 'oldInstall' | 'scopes'>, requiredScopes: string): 0 | 1 {
  if (shop.oldInstall) return 1;
  // A shop without a stored grant is not "old": it is sent through install, not re-authorisation.
  if (!shop.scopes) return 0;
  return missingScopes(shop.scopes, requiredScopes).length > 0 ? 1 : 0;
}
