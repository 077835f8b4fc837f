import type { ListedKey } from "../../auth/service";
import { DataTable } from "../../ui/table";
import { Field } from "../../ui/fields";
import { LOCALE, type Lang } from "../../ui/i18n";

// DESIGN 25, 25a: the employer's API keys, for admins — live and test, each by its prefix, with
// when it was made and last used and whether it is rolling to a new one; a new key shown once.

export const KEYS_WORDS = {
  en: {
    title: "API keys",
    intro:
      "Your integration sends one of these keys in the API-Key header. A live key works on your jobs; a test key (jpa_test_…) works the same way in your test space, whose jobs never reach the board and send no email.",
    caption: "Your API keys",
    empty: "You have no API key here yet.",
    key: "Key",
    kind: "Kind",
    created: "Created",
    lastUsed: "Last used (to the hour)",
    state: "State",
    actions: "Actions",
    live: "Live",
    test: "Test",
    noPrefix: "no prefix (made before prefixes were kept)",
    notUsed: "Not recorded yet",
    active: "Works",
    endsAt: (when: string) => `Works until ${when}, then stops (rolled)`,
    revoke: "Revoke",
    revokeLabel: (prefix: string) => `Revoke ${prefix}…`,
    overlap: "Old key works on for (hours, 0 to 24)",
    roll: "Roll",
    rollLabel: (prefix: string) => `Roll ${prefix}…`,
    noPrefixNote: "A key without a prefix cannot be revoked or rolled here: the operator revokes it (npm run keys -- revoke). Make a new key, move your integration to it, then ask.",
    createTitle: "New key",
    testKey: "A test key (jpa_test_…), for your test space",
    create: "Create a key",
    newKey: "Your new key, shown this once: copy it now. Only its SHA-256 is kept, so nobody can show it again.",
    revoked: (prefix: string) => `Key ${prefix}… revoked. Servers that read it within the last minute may accept it for up to a minute more.`,
    overlapInvalid: "Enter a whole number of hours from 0 to 24.",
    rolledAlreadyTitle: "This key was rolled already",
    rolledAlready: "It keeps working until the time shown in the list, then stops. Revoke it to stop it now.",
    back: "Back to the API keys",
    utc: "UTC",
  },
  fr: {
    title: "Clés d'API",
    intro:
      "Votre intégration envoie l'une de ces clés dans l'en-tête API-Key. Une clé réelle agit sur vos offres; une clé de test (jpa_test_…) agit de la même façon dans votre espace de test, dont les offres n'atteignent jamais le site et n'envoient aucun courriel.",
    caption: "Vos clés d'API",
    empty: "Vous n'avez encore aucune clé d'API ici.",
    key: "Clé",
    kind: "Type",
    created: "Créée",
    lastUsed: "Dernière utilisation (à l'heure près)",
    state: "État",
    actions: "Actions",
    live: "Réelle",
    test: "Test",
    noPrefix: "sans préfixe (créée avant que les préfixes soient conservés)",
    notUsed: "Pas encore enregistrée",
    active: "Fonctionne",
    endsAt: (when: string) => `Fonctionne jusqu'au ${when}, puis s'arrête (remplacée)`,
    revoke: "Révoquer",
    revokeLabel: (prefix: string) => `Révoquer ${prefix}…`,
    overlap: "L'ancienne clé fonctionne encore (heures, de 0 à 24)",
    roll: "Remplacer",
    rollLabel: (prefix: string) => `Remplacer ${prefix}…`,
    noPrefixNote:
      "Une clé sans préfixe ne peut être ni révoquée ni remplacée ici : l'opérateur la révoque (npm run keys -- revoke). Créez une nouvelle clé, passez-y votre intégration, puis demandez-le.",
    createTitle: "Nouvelle clé",
    testKey: "Une clé de test (jpa_test_…), pour votre espace de test",
    create: "Créer une clé",
    newKey: "Votre nouvelle clé, affichée cette seule fois : copiez-la maintenant. Seul son SHA-256 est conservé; personne ne peut donc l'afficher de nouveau.",
    revoked: (prefix: string) => `Clé ${prefix}… révoquée. Les serveurs qui l'ont lue dans la dernière minute peuvent l'accepter jusqu'à une minute de plus.`,
    overlapInvalid: "Entrez un nombre entier d'heures, de 0 à 24.",
    rolledAlreadyTitle: "Cette clé a déjà été remplacée",
    rolledAlready: "Elle fonctionne jusqu'au moment indiqué dans la liste, puis s'arrête. Révoquez-la pour l'arrêter tout de suite.",
    back: "Retour aux clés d'API",
    utc: "UTC",
  },
} as const;

// Made once per isolate: building a formatter costs far more than using one.
const MOMENTS = {
  en: new Intl.DateTimeFormat(LOCALE.en, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
  fr: new Intl.DateTimeFormat(LOCALE.fr, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
};
const moment = (lang: Lang, ms: number) => `${MOMENTS[lang].format(new Date(ms))} ${KEYS_WORDS[lang].utc}`;

/** A refused roll, shown beside its key's field. */
export interface RollError {
  prefix: string;
  overlapHours: string;
}

/** Revoke, and roll unless it was rolled already. */
function KeyActions(props: { lang: Lang; prefix: string; rolled: boolean; error?: RollError }) {
  const words = KEYS_WORDS[props.lang];
  const { prefix, error } = props;
  const id = `overlap-${prefix}`;
  return (
    <>
      {props.rolled ? null : (
        <form method="post" action={`/employer/keys/${prefix}/roll`}>
          <Field id={id} label={words.overlap} error={error ? words.overlapInvalid : undefined}>
            {(aria) => <input id={id} name="overlapHours" type="number" min="0" max="24" step="1" required value={error?.overlapHours ?? "24"} {...aria} />}
          </Field>
          <button type="submit" aria-label={words.rollLabel(prefix)}>
            {words.roll}
          </button>
        </form>
      )}
      <form method="post" action={`/employer/keys/${prefix}/revoke`}>
        <button type="submit" aria-label={words.revokeLabel(prefix)}>
          {words.revoke}
        </button>
      </form>
    </>
  );
}

export function KeysPage(props: { lang: Lang; keys: ListedKey[]; newKey?: string; revoked?: string; rollError?: RollError }) {
  const words = KEYS_WORDS[props.lang];
  const { lang } = props;
  return (
    <>
      {props.newKey ? (
        <div class="notice" role="status">
          <p>{words.newKey}</p>
          <p>
            <code>{props.newKey}</code>
          </p>
        </div>
      ) : null}
      {props.revoked ? (
        <p class="notice" role="status">
          {words.revoked(props.revoked)}
        </p>
      ) : null}
      <p>{words.intro}</p>
      <DataTable
        caption={words.caption}
        empty={words.empty}
        rows={props.keys}
        columns={[
          { header: words.key, cell: (key) => (key.prefix ? <code>{key.prefix}…</code> : words.noPrefix) },
          { header: words.kind, cell: (key) => (key.test ? words.test : words.live) },
          { header: words.created, cell: (key) => moment(lang, key.createdAt) },
          { header: words.lastUsed, cell: (key) => (key.lastUsedAt === null ? words.notUsed : moment(lang, key.lastUsedAt)) },
          { header: words.state, cell: (key) => (key.endsAt === null ? words.active : words.endsAt(moment(lang, key.endsAt))) },
          {
            header: words.actions,
            cell: (key) => (key.prefix ? <KeyActions lang={lang} prefix={key.prefix} rolled={key.endsAt !== null} error={props.rollError?.prefix === key.prefix ? props.rollError : undefined} /> : null),
          },
        ]}
      />
      {props.keys.some((key) => !key.prefix) ? <p>{words.noPrefixNote}</p> : null}
      <h2>{words.createTitle}</h2>
      <form method="post" action="/employer/keys">
        <p>
          <input id="test" name="test" type="checkbox" value="yes" /> <label for="test">{words.testKey}</label>
        </p>
        <button type="submit">{words.create}</button>
      </form>
    </>
  );
}
