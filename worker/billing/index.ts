// The billing area's public surface: other areas import from here.
export { chargeImageOnce, overageAllowanceFor, quotaStatus, type ChargeResult, type QuotaStatus } from './quota';
