/** A workflow function's shape, as far as starting it is concerned. */
export type Workflow = (...args: any[]) => Promise<unknown>;

/**
 * A workflow type named once, beside its input and output types (each area's ids.ts), so that starts
 * are typed without importing workflow code. The worker's registry test checks every name against the
 * bundle's exports.
 */
export interface WorkflowRef<W extends Workflow> {
  readonly name: string;
  /** Never set: carries W for type inference. */
  readonly signature?: W;
}

/** The workflow function type a ref stands for. */
export type WorkflowOf<R> = R extends WorkflowRef<infer W> ? W : never;
