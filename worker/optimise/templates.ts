// Alt text and file names from the merchant's templates: one implementation in shared/templates.ts, run
// by the pipeline here and by the admin's live preview.
export * from '../../shared/templates';
