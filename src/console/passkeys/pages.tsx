import type { PasskeyListing } from "../../accounts/passkeys";
import { Field } from "../../ui/fields";
import { formatDate, type Lang } from "../../ui/i18n";
import { DataTable } from "../../ui/table";
import { PASSKEYS_SCRIPT_PATH } from "./browser-script";

// DESIGN 25, 25a: what a person sees of passkeys — their list with a remove button each, the
// form that adds one, and the sign-in page's button. The forms that need the browser's WebAuthn
// are hidden as served; the script (./client.js) shows and drives them, in the words given here.

export const PASSKEY_WORDS = {
  en: {
    title: "Passkeys",
    intro:
      "A passkey signs you in to the console without an email: your device checks that it is you (fingerprint, face or screen lock), and no password is ever sent. Add one on each device you use.",
    caption: "Your passkeys",
    name: "Name",
    added: "Added",
    lastUsed: "Last used",
    never: "Never",
    actions: "Actions",
    remove: "Remove",
    removeNamed: (name: string) => `Remove ${name}`,
    none: "You have no passkey yet.",
    addTitle: "Add a passkey",
    nameLabel: "Name of this passkey",
    nameHint: "To tell your passkeys apart, e.g. Work laptop.",
    defaultName: "Passkey",
    add: "Add a passkey",
    needsScript: "Adding a passkey needs JavaScript, which is off or cannot use passkeys in this browser. The emailed link still signs you in.",
    working: "Follow your browser's prompts…",
    cancelled: "Nothing was added: the request was cancelled or took too long.",
    exists: "This device holds a passkey of yours for this console already.",
    failed: "The passkey could not be added. Try again.",
    addedNotice: "Passkey added. Next time, sign in with it.",
    removedNotice: "Passkey removed: it no longer signs you in here. You may delete it from your device too.",
    signIn: "Sign in with a passkey",
    signInCancelled: "No passkey was used: the request was cancelled or took too long.",
    signInFailed: "This passkey did not sign you in. Use an emailed link instead.",
  },
  fr: {
    title: "Clés d'accès",
    intro:
      "Une clé d'accès vous connecte à la console sans courriel : votre appareil vérifie que c'est bien vous (empreinte, visage ou verrouillage de l'écran), et aucun mot de passe n'est jamais envoyé. Ajoutez-en une sur chaque appareil que vous utilisez.",
    caption: "Vos clés d'accès",
    name: "Nom",
    added: "Ajoutée le",
    lastUsed: "Dernière utilisation",
    never: "Jamais",
    actions: "Actions",
    remove: "Supprimer",
    removeNamed: (name: string) => `Supprimer ${name}`,
    none: "Vous n'avez encore aucune clé d'accès.",
    addTitle: "Ajouter une clé d'accès",
    nameLabel: "Nom de cette clé d'accès",
    nameHint: "Pour distinguer vos clés d'accès, p. ex. Portable du bureau.",
    defaultName: "Clé d'accès",
    add: "Ajouter une clé d'accès",
    needsScript:
      "L'ajout d'une clé d'accès demande JavaScript, désactivé ou incapable d'utiliser les clés d'accès dans ce navigateur. Le lien envoyé par courriel vous connecte toujours.",
    working: "Suivez les invites de votre navigateur…",
    cancelled: "Rien n'a été ajouté : la demande a été annulée ou a pris trop de temps.",
    exists: "Cet appareil détient déjà une de vos clés d'accès pour cette console.",
    failed: "La clé d'accès n'a pas pu être ajoutée. Réessayez.",
    addedNotice: "Clé d'accès ajoutée. La prochaine fois, connectez-vous avec elle.",
    removedNotice: "Clé d'accès supprimée : elle ne vous connecte plus ici. Vous pouvez aussi l'effacer de votre appareil.",
    signIn: "Me connecter avec une clé d'accès",
    signInCancelled: "Aucune clé d'accès n'a servi : la demande a été annulée ou a pris trop de temps.",
    signInFailed: "Cette clé d'accès ne vous a pas connecté. Utilisez plutôt un lien envoyé par courriel.",
  },
} as const;

/** At most this many characters name a passkey. */
export const NAME_MAX = 60;

const PasskeysScript = () => <script src={PASSKEYS_SCRIPT_PATH} defer></script>;

const dateOf = (lang: Lang, ms: number) => formatDate(lang, new Date(ms).toISOString());

/** The passkeys page's content: the notice of what was just done, the list, the form that adds one. */
export function PasskeysBody(props: { lang: Lang; passkeys: PasskeyListing[]; notice?: "added" | "removed" }) {
  const words = PASSKEY_WORDS[props.lang];
  return (
    <>
      {props.notice ? (
        <p role="status" class="notice">
          {props.notice === "added" ? words.addedNotice : words.removedNotice}
        </p>
      ) : null}
      <p>{words.intro}</p>
      <DataTable
        caption={words.caption}
        rows={props.passkeys}
        empty={words.none}
        columns={[
          { header: words.name, cell: (passkey) => passkey.name },
          { header: words.added, cell: (passkey) => dateOf(props.lang, passkey.createdAt) },
          { header: words.lastUsed, cell: (passkey) => (passkey.lastUsedAt === null ? words.never : dateOf(props.lang, passkey.lastUsedAt)) },
          {
            header: words.actions,
            cell: (passkey) => (
              <form method="post" action={`/employer/passkeys/${passkey.id}/remove`} class="inline">
                <button type="submit" class="danger" aria-label={words.removeNamed(passkey.name)}>
                  {words.remove}
                </button>
              </form>
            ),
          },
        ]}
      />
      <h2>{words.addTitle}</h2>
      <p data-passkeys-need-script>{words.needsScript}</p>
      <form id="passkey-add" method="post" action="/employer/passkeys" hidden data-working={words.working} data-cancelled={words.cancelled} data-exists={words.exists} data-failed={words.failed}>
        <Field id="passkey-name" label={words.nameLabel} hint={words.nameHint}>
          {(aria) => <input id="passkey-name" name="name" type="text" maxlength={NAME_MAX} autocomplete="off" {...aria} />}
        </Field>
        <button type="submit">{words.add}</button>
        <p role="status"></p>
      </form>
      <PasskeysScript />
    </>
  );
}

/** The sign-in page's passkey button: hidden as served, shown by the script where passkeys work. */
export function PasskeySignIn(props: { lang: Lang; next?: string }) {
  const words = PASSKEY_WORDS[props.lang];
  return (
    <>
      <form id="passkey-sign-in" method="post" action="/employer/sign-in/passkey" hidden data-next={props.next} data-working={words.working} data-cancelled={words.signInCancelled} data-failed={words.signInFailed}>
        <button type="submit">{words.signIn}</button>
        <p role="status"></p>
      </form>
      <PasskeysScript />
    </>
  );
}
