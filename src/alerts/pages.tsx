import { Field, FieldError, tieToError } from "../ui/fields";
import type { Lang } from "../ui/i18n";
import { Layout } from "../ui/layout";
import type { Sender } from "./consent";
import { consentText } from "./consent";
import { FREQUENCIES, WEEKDAYS } from "./schedule";

// DESIGN 23, 23a: the alerts' pages, server-rendered with the board pages' layout, English and
// French, no script. A GET shows and changes nothing (mail scanners follow links); each form
// POSTs to the page's own address.

export const ALERT_WORDS = {
  en: {
    checkTitle: "Check your mailbox",
    check: "If the address can receive alerts, a confirmation email is on its way. Open its link to start your alert; nothing is sent until you do.",
    confirmTitle: "Confirm your job alert",
    confirmAsk: "Press the button to start receiving emails for this search:",
    confirmButton: "Start my alert",
    confirmedTitle: "Your job alert is on",
    confirmed: "You will get an email when new jobs match. Every email has a link to change or stop the alert.",
    unsubscribeTitle: "Unsubscribe",
    unsubscribeAsk: "Stop the emails of this alert:",
    unsubscribeButton: "Unsubscribe from this alert",
    unsubscribeAllButton: "Unsubscribe from all my alerts",
    unsubscribedTitle: "You are unsubscribed",
    unsubscribed: "No more emails will be sent for this alert.",
    unsubscribedAll: "No more emails will be sent for any of your alerts.",
    manageTitle: "Your job alerts",
    none: "You have no job alerts.",
    frequency: "Frequency",
    frequencies: { instant: "As jobs come in (at most 10 a day)", daily: "Daily", weekly: "Weekly" } as Record<string, string>,
    hour: "Hour",
    weekday: "Day (weekly)",
    weekdays: { monday: "Monday", tuesday: "Tuesday", wednesday: "Wednesday", thursday: "Thursday", friday: "Friday", saturday: "Saturday", sunday: "Sunday" } as Record<string, string>,
    save: "Save",
    pause: "Pause",
    resume: "Resume",
    paused: "Paused",
    keep: "Keep this alert",
    remove: "Delete this alert",
    removeAll: "Delete all my alerts",
    feed: "Feed (Atom)",
    invalidTitle: "This link does not work",
    invalid: "This link is not valid, or its alert request expired (requests not confirmed within 7 days are deleted). You can ask for a new alert from any search.",
    backToSearch: "Back to the search",
    formTitle: "Get these jobs by email",
    email: "Email address",
    consent: "I agree to receive these emails.",
    subscribe: "Create the alert",
    formErrors: "Please correct the highlighted fields.",
    declineTitle: "Delete this alert request",
    declineAsk: "If you did not ask for job alerts for this search, delete the request: nothing will be sent to your address.",
    declineButton: "Delete the request",
    declinedTitle: "Request deleted",
    declined: "The alert request is deleted. No email will be sent for it.",
  },
  fr: {
    checkTitle: "Vérifiez votre boîte de réception",
    check: "Si l'adresse peut recevoir des alertes, un courriel de confirmation est en route. Ouvrez son lien pour lancer votre alerte; rien n'est envoyé avant.",
    confirmTitle: "Confirmez votre alerte emploi",
    confirmAsk: "Appuyez sur le bouton pour commencer à recevoir les courriels de cette recherche :",
    confirmButton: "Lancer mon alerte",
    confirmedTitle: "Votre alerte emploi est active",
    confirmed: "Vous recevrez un courriel quand de nouvelles offres correspondront. Chaque courriel a un lien pour modifier ou arrêter l'alerte.",
    unsubscribeTitle: "Se désabonner",
    unsubscribeAsk: "Arrêter les courriels de cette alerte :",
    unsubscribeButton: "Me désabonner de cette alerte",
    unsubscribeAllButton: "Me désabonner de toutes mes alertes",
    unsubscribedTitle: "Vous êtes désabonné",
    unsubscribed: "Plus aucun courriel ne sera envoyé pour cette alerte.",
    unsubscribedAll: "Plus aucun courriel ne sera envoyé pour vos alertes.",
    manageTitle: "Vos alertes emploi",
    none: "Vous n'avez aucune alerte emploi.",
    frequency: "Fréquence",
    frequencies: { instant: "Dès qu'une offre arrive (au plus 10 par jour)", daily: "Chaque jour", weekly: "Chaque semaine" } as Record<string, string>,
    hour: "Heure",
    weekday: "Jour (hebdomadaire)",
    weekdays: { monday: "lundi", tuesday: "mardi", wednesday: "mercredi", thursday: "jeudi", friday: "vendredi", saturday: "samedi", sunday: "dimanche" } as Record<string, string>,
    save: "Enregistrer",
    pause: "Suspendre",
    resume: "Reprendre",
    paused: "Suspendue",
    keep: "Garder cette alerte",
    remove: "Supprimer cette alerte",
    removeAll: "Supprimer toutes mes alertes",
    feed: "Fil (Atom)",
    invalidTitle: "Ce lien ne fonctionne pas",
    invalid: "Ce lien n'est pas valide, ou sa demande d'alerte a expiré (les demandes non confirmées dans les 7 jours sont supprimées). Vous pouvez demander une nouvelle alerte depuis toute recherche.",
    backToSearch: "Retour à la recherche",
    formTitle: "Recevoir ces offres par courriel",
    email: "Adresse courriel",
    consent: "J'accepte de recevoir ces courriels.",
    subscribe: "Créer l'alerte",
    formErrors: "Veuillez corriger les champs signalés.",
    declineTitle: "Supprimer cette demande d'alerte",
    declineAsk: "Si vous n'avez pas demandé d'alertes emploi pour cette recherche, supprimez la demande : rien ne sera envoyé à votre adresse.",
    declineButton: "Supprimer la demande",
    declinedTitle: "Demande supprimée",
    declined: "La demande d'alerte est supprimée. Aucun courriel ne sera envoyé pour elle.",
  },
} as const;

const HOME = { en: "/", fr: "/fr/" } as const;

interface PageProps {
  lang: Lang;
  addresses: Record<Lang, string>;
}

function Message(props: PageProps & { title: string; text: string }) {
  return (
    <Layout lang={props.lang} title={props.title} description={props.title} addresses={props.addresses}>
      <h1>{props.title}</h1>
      <p>{props.text}</p>
      <p>
        <a href={HOME[props.lang]}>{ALERT_WORDS[props.lang].backToSearch}</a>
      </p>
    </Layout>
  );
}

export const CheckMailboxPage = (props: PageProps) => <Message {...props} title={ALERT_WORDS[props.lang].checkTitle} text={ALERT_WORDS[props.lang].check} />;
export const InvalidLinkPage = (props: PageProps) => <Message {...props} title={ALERT_WORDS[props.lang].invalidTitle} text={ALERT_WORDS[props.lang].invalid} />;
export const ConfirmedPage = (props: PageProps) => <Message {...props} title={ALERT_WORDS[props.lang].confirmedTitle} text={ALERT_WORDS[props.lang].confirmed} />;
export const DeclinedPage = (props: PageProps) => <Message {...props} title={ALERT_WORDS[props.lang].declinedTitle} text={ALERT_WORDS[props.lang].declined} />;
export const UnsubscribedPage = (props: PageProps & { all: boolean }) => (
  <Message {...props} title={ALERT_WORDS[props.lang].unsubscribedTitle} text={props.all ? ALERT_WORDS[props.lang].unsubscribedAll : ALERT_WORDS[props.lang].unsubscribed} />
);

/** A page that names the alert's search and asks for one button's POST (nothing changes on GET). */
function AskPage(props: PageProps & { search: string; action: string; title: string; ask: string; button: string }) {
  return (
    <Layout lang={props.lang} title={props.title} description={props.title} addresses={props.addresses}>
      <h1>{props.title}</h1>
      <p>{props.ask}</p>
      <p>
        <strong>{props.search}</strong>
      </p>
      <form method="post" action={props.action}>
        <button type="submit">{props.button}</button>
      </form>
    </Layout>
  );
}

export const ConfirmPage = (props: PageProps & { search: string; action: string }) => {
  const words = ALERT_WORDS[props.lang];
  return <AskPage {...props} title={words.confirmTitle} ask={words.confirmAsk} button={words.confirmButton} />;
};

/** "This was not me" (the confirmation email's second link): a GET shows the button, its POST deletes the request. */
export const DeclinePage = (props: PageProps & { search: string; action: string }) => {
  const words = ALERT_WORDS[props.lang];
  return <AskPage {...props} title={words.declineTitle} ask={words.declineAsk} button={words.declineButton} />;
};

export function UnsubscribePage(props: PageProps & { search: string; action: string }) {
  const words = ALERT_WORDS[props.lang];
  return (
    <Layout lang={props.lang} title={words.unsubscribeTitle} description={words.unsubscribeTitle} addresses={props.addresses}>
      <h1>{words.unsubscribeTitle}</h1>
      <p>{words.unsubscribeAsk}</p>
      <p>
        <strong>{props.search}</strong>
      </p>
      <form method="post" action={props.action}>
        <button type="submit">{words.unsubscribeButton}</button>
      </form>
      <form method="post" action={props.action}>
        <input type="hidden" name="scope" value="all" />
        <button type="submit">{words.unsubscribeAllButton}</button>
      </form>
    </Layout>
  );
}

export interface ManagedAlert {
  id: number;
  search: string;
  frequency: string;
  hour: number;
  weekday: string;
  paused: boolean;
  /** The 12-month "keep this alert?" email asked: the page offers the answer. */
  askedToKeep: boolean;
  feed: string;
}

export function ManagePage(props: PageProps & { alerts: ManagedAlert[]; action: string }) {
  const words = ALERT_WORDS[props.lang];
  return (
    <Layout lang={props.lang} title={words.manageTitle} description={words.manageTitle} addresses={props.addresses}>
      <h1>{words.manageTitle}</h1>
      {props.alerts.length === 0 ? <p>{words.none}</p> : null}
      {props.alerts.map((alert) => (
        <section aria-labelledby={`alert-${alert.id}`}>
          <h2 id={`alert-${alert.id}`}>
            {alert.search}
            {alert.paused ? ` (${words.paused})` : ""}
          </h2>
          <form method="post" action={props.action}>
            <input type="hidden" name="alert" value={String(alert.id)} />
            <input type="hidden" name="action" value="schedule" />
            <label for={`frequency-${alert.id}`}>{words.frequency}</label>
            <select id={`frequency-${alert.id}`} name="frequency">
              {FREQUENCIES.map((frequency) => (
                <option value={frequency} selected={frequency === alert.frequency}>
                  {words.frequencies[frequency]}
                </option>
              ))}
            </select>
            <label for={`hour-${alert.id}`}>{words.hour}</label>
            <select id={`hour-${alert.id}`} name="hour">
              {Array.from({ length: 24 }, (_, hour) => (
                <option value={String(hour)} selected={hour === alert.hour}>{`${String(hour).padStart(2, "0")}:00`}</option>
              ))}
            </select>
            <label for={`weekday-${alert.id}`}>{words.weekday}</label>
            <select id={`weekday-${alert.id}`} name="weekday">
              {WEEKDAYS.map((weekday) => (
                <option value={weekday} selected={weekday === alert.weekday}>
                  {words.weekdays[weekday]}
                </option>
              ))}
            </select>
            <button type="submit">{words.save}</button>
          </form>
          {alert.askedToKeep ? (
            <form method="post" action={props.action}>
              <input type="hidden" name="alert" value={String(alert.id)} />
              <input type="hidden" name="action" value="keep" />
              <button type="submit">{words.keep}</button>
            </form>
          ) : null}
          <form method="post" action={props.action}>
            <input type="hidden" name="alert" value={String(alert.id)} />
            <input type="hidden" name="action" value={alert.paused ? "resume" : "pause"} />
            <button type="submit">{alert.paused ? words.resume : words.pause}</button>
          </form>
          <form method="post" action={props.action}>
            <input type="hidden" name="alert" value={String(alert.id)} />
            <input type="hidden" name="action" value="delete" />
            <button type="submit">{words.remove}</button>
          </form>
          <p>
            <a href={alert.feed}>{words.feed}</a>
          </p>
        </section>
      ))}
      {props.alerts.length ? (
        <form method="post" action={props.action}>
          <input type="hidden" name="action" value="delete-all" />
          <button type="submit">{words.removeAll}</button>
        </form>
      ) : null}
    </Layout>
  );
}

/**
 * DESIGN 23: the alert form under a search's results: the search as it stands (hidden fields),
 * email, frequency, and the consent statement with a box never checked beforehand.
 */
export function AlertForm(props: {
  lang: Lang;
  action: string;
  search: Record<string, string | undefined>;
  sender: Sender;
  errors?: Partial<Record<"email" | "consent" | "search", string>>;
  email?: string;
  /** The form on a page of its own (shown again with its problems): its title is the page's h1. */
  standalone?: boolean;
}) {
  const words = ALERT_WORDS[props.lang];
  const errors = props.errors ?? {};
  return (
    <section aria-labelledby="alert-form-title" class="alert-form">
      {props.standalone ? <h1 id="alert-form-title">{words.formTitle}</h1> : <h2 id="alert-form-title">{words.formTitle}</h2>}
      {Object.keys(errors).length ? <p role="alert">{words.formErrors}</p> : null}
      <form method="post" action={props.action}>
        {Object.entries(props.search).map(([name, value]) => (value ? <input type="hidden" name={name} value={value} /> : null))}
        {errors.search ? <p class="error">{errors.search}</p> : null}
        <Field id="alert-email" label={words.email} error={errors.email} inline>
          {(aria) => <input id="alert-email" name="email" type="email" autocomplete="email" required maxlength={254} value={props.email ?? ""} {...aria} />}
        </Field>
        <p>
          <label for="alert-frequency">{words.frequency}</label>
          <select id="alert-frequency" name="frequency">
            {FREQUENCIES.map((frequency) => (
              <option value={frequency} selected={frequency === "daily"}>
                {words.frequencies[frequency]}
              </option>
            ))}
          </select>
        </p>
        <p class="consent">{consentText(props.lang, props.sender)}</p>
        <p>
          <input id="alert-consent" name="consent" type="checkbox" value="yes" required {...tieToError("alert-consent", errors.consent)} />
          <label for="alert-consent">{words.consent}</label>
          <FieldError id="alert-consent" message={errors.consent} inline />
        </p>
        <button type="submit">{words.subscribe}</button>
      </form>
    </section>
  );
}
