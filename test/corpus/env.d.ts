// The corpus strings test/corpus/vitest.config.ts hands to the worker.
declare global {
  namespace Cloudflare {
    interface Env {
      XSS_VECTORS: string[];
      XSS_BENIGN: string[];
    }
  }
}

export {};
