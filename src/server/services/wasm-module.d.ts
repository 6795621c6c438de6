/**
 * `import x from "pkg/file.wasm?module"`: a compiled WebAssembly.Module, as `.wasm` is (see
 * auth/wasm.d.ts). Used where a package ships its own `file.wasm.d.ts` (wasm-bindgen's exports),
 * which TypeScript would otherwise read for the plain `.wasm` specifier.
 */
declare module "*.wasm?module" {
  const module: WebAssembly.Module;
  export default module;
}
