// wrangler and the vitest workers pool bundle `.wasm` imports as compiled WebAssembly.Module objects.
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
