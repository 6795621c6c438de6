declare module "virtual:client-manifest" {
  const manifest: import("./assets").ClientManifest | null;
  export default manifest;
}
