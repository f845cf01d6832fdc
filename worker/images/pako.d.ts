// pako 1.x (pure-JS zlib) ships no types; only the streaming inflater is used (png-stream.ts).
declare module 'pako/lib/inflate.js' {
  export class Inflate {
    constructor(options?: { chunkSize?: number; raw?: boolean });
    push(data: Uint8Array, mode?: boolean | number): boolean;
    onData(chunk: Uint8Array): void;
    onEnd(status: number): void;
    err: number;
    msg: string;
    ended: boolean;
  }
}
