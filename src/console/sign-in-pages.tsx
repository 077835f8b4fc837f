import { Field } from "../ui/fields";
import type { Lang } from "../ui/i18n";
import type { Role } from "../accounts/tokens";
import { PasskeySignIn } from "./passkeys/pages";
import { ConsolePage } from "./shell";

// DESIGN 25, 25a: the console's pages before sign-in — sign-in, invitations — in the console's
// shell, English and French, no script. A GET shows and changes nothing
// (mail scanners follow links): each token page's button POSTs to the page's own address.

export const CONSOLE_WORDS = {
  en: {
    signInTitle: "Sign in to the employer console",
    signInAsk: "Enter your email address: if it belongs to someone of an employer, we email a link to sign in.",
    email: "Email address",
    emailInvalid: "Enter a valid email address.",
    sendLink: "Email me a sign-in link",
    sentTitle: "Check your mailbox",
    sent: "If the address belongs to someone of an employer, a sign-in link is on its way. It works once, within 15 minutes.",
    linkTitle: "Sign in",
    linkAsk: "Press the button to sign in to the employer console.",
    linkButton: "Sign in",
    linkGoneTitle: "This sign-in link does not work",
    linkGone: "The link was used already or is more than 15 minutes old.",
    askAgain: "Ask for a new sign-in link",
    inviteTitle: "You are invited",
    invite: (employer: string, role: string) => `You are invited to ${employer}'s employer console as ${role}.`,
    inviteButton: "Accept and sign in",
    inviteGoneTitle: "This invitation does not work",
    inviteGone: "The invitation was used already or is more than 7 days old. Ask whoever invited you for a new one.",
    roles: { admin: "an administrator", recruiter: "a recruiter" } as Record<Role, string>,
  },
  fr: {
    signInTitle: "Connexion à la console employeur",
    signInAsk: "Entrez votre adresse courriel : si elle appartient à une personne d'un employeur, nous envoyons un lien de connexion.",
    email: "Adresse courriel",
    emailInvalid: "Entrez une adresse courriel valide.",
    sendLink: "M'envoyer un lien de connexion",
    sentTitle: "Vérifiez votre boîte de réception",
    sent: "Si l'adresse appartient à une personne d'un employeur, un lien de connexion est en route. Il fonctionne une fois, dans les 15 minutes.",
    linkTitle: "Connexion",
    linkAsk: "Appuyez sur le bouton pour vous connecter à la console employeur.",
    linkButton: "Me connecter",
    linkGoneTitle: "Ce lien de connexion ne fonctionne pas",
    linkGone: "Le lien a déjà servi ou date de plus de 15 minutes.",
    askAgain: "Demander un nouveau lien de connexion",
    inviteTitle: "Invitation",
    invite: (employer: string, role: string) => `Vous êtes invité à la console employeur de ${employer} à titre ${role}.`,
    inviteButton: "Accepter et me connecter",
    inviteGoneTitle: "Cette invitation ne fonctionne pas",
    inviteGone: "L'invitation a déjà servi ou date de plus de 7 jours. Demandez-en une nouvelle à la personne qui vous a invité.",
    roles: { admin: "d'administrateur", recruiter: "de recruteur" } as Record<Role, string>,
  },
} as const;


export function SignInPage(props: { lang: Lang; address: string; switchTo: string; next?: string; email?: string; error?: string }) {
  const words = CONSOLE_WORDS[props.lang];
  return (
    <ConsolePage lang={props.lang} title={words.signInTitle} address={props.address} switchTo={props.switchTo}>
      <p>{words.signInAsk}</p>
      <form method="post" action="/employer/sign-in">
        <input type="hidden" name="lang" value={props.lang} />
        {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
        <Field id="email" label={words.email} error={props.error}>
          {(aria) => <input id="email" name="email" type="email" autocomplete="email" required value={props.email ?? ""} {...aria} />}
        </Field>
        <button type="submit">{words.sendLink}</button>
      </form>
      <PasskeySignIn lang={props.lang} next={props.next} />
    </ConsolePage>
  );
}

export function SentPage(props: { lang: Lang; address: string; switchTo: string }) {
  const words = CONSOLE_WORDS[props.lang];
  return (
    <ConsolePage lang={props.lang} title={words.sentTitle} address={props.address} switchTo={props.switchTo}>
      <p role="status">{words.sent}</p>
    </ConsolePage>
  );
}

/** A token page: what it does, and the one button that does it (its POST to the page's own address). */
export function ButtonPage(props: { lang: Lang; address: string; title: string; text: string; button: string; action: string }) {
  return (
    <ConsolePage lang={props.lang} title={props.title} address={props.address}>
      <p>{props.text}</p>
      <form method="post" action={props.action}>
        <button type="submit">{props.button}</button>
      </form>
    </ConsolePage>
  );
}

export function GonePage(props: { lang: Lang; address: string; title: string; text: string; askAgain?: boolean }) {
  const words = CONSOLE_WORDS[props.lang];
  return (
    <ConsolePage lang={props.lang} title={props.title} address={props.address}>
      <p>{props.text}</p>
      {props.askAgain ? (
        <p>
          <a href={`/employer/sign-in?lang=${props.lang}`}>{words.askAgain}</a>
        </p>
      ) : null}
    </ConsolePage>
  );
}
