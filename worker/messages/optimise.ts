// Messages on OPTIMISE_QUEUE (`image-optimise`): one message = one image of one job. Sent by the job
// planner (worker/optimise/plan.ts), consumed by worker/optimise/consumer.ts.

/** Options an upload carries into its optimisation (uploaded files only). */
export type UploadOptions = { pngToJpg: boolean; watermark: boolean };

export type OptimiseMessage = { type: 'image'; jobId: string; shopId: number; imageId: number; upload?: UploadOptions };
