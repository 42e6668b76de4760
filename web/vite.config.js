import { defineConfig } from "vite";

// The build goes where internal/web embeds it from; scripts/build-web.sh
// runs it and CI checks the committed files are what it makes.
export default defineConfig({
  base: "/",
  build: {
    outDir: "../internal/web/dist",
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
});
