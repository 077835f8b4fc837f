import { CALL_TIMEOUT_MS } from "./google";
import type { IndexNowSettings } from "./settings";

// DESIGN 24a: IndexNow (Bing, Yandex, Seznam, Naver): one POST names up to 10 000 addresses of
// one host, with the key the site serves at keyLocation. It has no notion of updated or deleted:
// the engine crawls each address and sees a page, a redirect or a 410.

export const INDEXNOW_URLS_PER_REQUEST = 10_000;

export async function submitUrls(settings: IndexNowSettings, urls: string[]): Promise<{ status: number; retryAfter: string | null; detail: string }> {
  try {
    const res = await fetch(settings.endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify({ host: settings.host, key: settings.key, keyLocation: settings.keyLocation, urlList: urls }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const detail = res.ok ? "" : (await res.text()).slice(0, 200);
    if (res.ok) await res.body?.cancel();
    return { status: res.status, retryAfter: res.headers.get("Retry-After"), detail };
  } catch (error) {
    return { status: 0, retryAfter: null, detail: String(error) };
  }
}
