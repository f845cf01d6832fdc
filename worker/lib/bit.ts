// The documented responses carry flags as 0/1 numbers; inside the Worker they are booleans.
export function bit(on: boolean): 0 | 1 {
  return on ? 1 : 0;
}
