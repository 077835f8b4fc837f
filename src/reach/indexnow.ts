import { postJson, type CallOutcome } from "./post";
import type { IndexNowSettings } from "./settings";

// DESIGN 24a: IndexNow (Bing, Yandex, Seznam, Naver): one POST names up to 10 000 addresses of
// one host, with the key the site serves at keyLocation. It has no notion of updated or deleted:
// the engine crawls each address and sees a page, a redirect or a 410.

export const INDEXNOW_URLS_PER_REQUEST = 10_000;

export function submitUrls(settings: IndexNowSettings, urls: string[]): Promise<CallOutcome> {
  return postJson(settings.endpoint, { "Content-Type": "application/json; charset=utf-8" }, { host: settings.host, key: settings.key, keyLocation: settings.keyLocation, urlList: urls });
}
