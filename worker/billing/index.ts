// The billing area's public surface: other areas import from here.
export { chargeImageOnce, overageAllowanceFor, quotaStatus, type ChargeResult, type QuotaStatus } from './quota';
export { applySubscriptionUpdate, changePlan, handleBillingReturn, syncSubscription, BILLING_RETURN_PATH } from './subscription';
export { raiseOverageCap, settleAllUsageCharges, settleUsageCharges } from './overage';
export { resetDueQuotas } from './quota-reset';
export { activeOffer, canDiscount, rebateInfo } from './discount';
export { newUserOffer, offerProblem, type NewUserOffer } from './terms';
export { quotaCycleForInstall } from './cycle';
