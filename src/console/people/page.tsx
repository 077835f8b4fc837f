import type { PendingInvitation, Person } from "../../accounts/service";
import { ROLES, type Role } from "../../accounts/tokens";
import { Field } from "../../ui/fields";
import { formatDate, type Lang } from "../../ui/i18n";
import { DataTable } from "../../ui/table";

// DESIGN 25, 25a: the employer's people, for admins — each with their role and since when,
// the invitations still open, and a form to invite someone (emailed, single use, 7 days).

export const PEOPLE_WORDS = {
  en: {
    title: "People",
    caption: "People of your employer",
    email: "Email address",
    role: "Role",
    since: "Since",
    actions: "Change or remove",
    change: "Change",
    remove: "Remove",
    roles: { admin: "Administrator", recruiter: "Recruiter" } as Record<Role, string>,
    rolesHint: "An administrator does everything; a recruiter works on jobs and applications only (not people, keys, webhooks or settings).",
    you: "(you)",
    roleOf: (email: string) => `Role of ${email}`,
    changeLabel: (email: string) => `Change the role of ${email}`,
    removeLabel: (email: string) => `Remove ${email}`,
    removeHint: "Removing someone ends their sessions at once.",
    invitationsCaption: "Invitations not yet accepted",
    invitedBy: "Invited by",
    expires: "Expires",
    operator: "the operator",
    noInvitations: "No invitation is waiting.",
    inviteTitle: "Invite someone",
    invite: "Send the invitation",
    inviteHint: "We email a link that works once, within 7 days, naming your employer and you.",
    emailInvalid: "Enter a valid email address.",
    emailTaken: "This address is one of your people already.",
    roleInvalid: "Choose administrator or recruiter.",
    invited: "Invitation sent.",
    saved: "Role changed.",
    removed: "Removed; their sessions are ended.",
    lastAdminTitle: "Your employer needs an administrator",
    lastAdmin: "This is your employer's last administrator: they can be neither removed nor made a recruiter. Make someone else an administrator first. Nothing was changed.",
    back: "Back to the people",
  },
  fr: {
    title: "Personnes",
    caption: "Personnes de votre employeur",
    email: "Adresse courriel",
    role: "Rôle",
    since: "Depuis",
    actions: "Changer ou retirer",
    change: "Changer",
    remove: "Retirer",
    roles: { admin: "Administrateur", recruiter: "Recruteur" } as Record<Role, string>,
    rolesHint: "Un administrateur fait tout; un recruteur travaille sur les offres et les candidatures seulement (pas les personnes, les clés, les webhooks ni les paramètres).",
    you: "(vous)",
    roleOf: (email: string) => `Rôle de ${email}`,
    changeLabel: (email: string) => `Changer le rôle de ${email}`,
    removeLabel: (email: string) => `Retirer ${email}`,
    removeHint: "Retirer une personne met fin à ses sessions aussitôt.",
    invitationsCaption: "Invitations pas encore acceptées",
    invitedBy: "Invitée par",
    expires: "Expire le",
    operator: "l'opérateur",
    noInvitations: "Aucune invitation n'attend.",
    inviteTitle: "Inviter une personne",
    invite: "Envoyer l'invitation",
    inviteHint: "Nous envoyons un lien qui fonctionne une fois, dans les 7 jours, et qui nomme votre employeur et vous.",
    emailInvalid: "Entrez une adresse courriel valide.",
    emailTaken: "Cette adresse est déjà celle d'une de vos personnes.",
    roleInvalid: "Choisissez administrateur ou recruteur.",
    invited: "Invitation envoyée.",
    saved: "Rôle changé.",
    removed: "Retirée; ses sessions sont terminées.",
    lastAdminTitle: "Votre employeur a besoin d'un administrateur",
    lastAdmin:
      "C'est le dernier administrateur de votre employeur : il ne peut être ni retiré ni rendu recruteur. Nommez d'abord une autre personne administrateur. Rien n'a changé.",
    back: "Retour aux personnes",
  },
} as const;

/** What was just done (a 303 back here says it). */
export type Done = "invited" | "saved" | "removed";

/** The invitation form as typed, with its problems. */
export interface InviteForm {
  email: string;
  role: string;
  errors: { email?: string; role?: string };
}

/** A refused role change, shown beside its person's field. */
export interface RoleError {
  personId: number;
  message: string;
}

function RoleSelect(props: { id: string; name: string; value: string; lang: Lang; aria: { "aria-invalid"?: "true"; "aria-describedby"?: string } }) {
  const words = PEOPLE_WORDS[props.lang];
  return (
    <select id={props.id} name={props.name} {...props.aria}>
      {ROLES.map((role) => (
        <option value={role} selected={role === props.value}>
          {words.roles[role]}
        </option>
      ))}
    </select>
  );
}

function PersonActions(props: { lang: Lang; person: Person; error?: string }) {
  const words = PEOPLE_WORDS[props.lang];
  const { person } = props;
  const id = `role-${person.id}`;
  return (
    <>
      <form method="post" action={`/employer/people/${person.id}/role`}>
        <Field id={id} label={words.roleOf(person.email)} error={props.error}>
          {(aria) => <RoleSelect id={id} name="role" value={person.role} lang={props.lang} aria={aria} />}
        </Field>
        <button type="submit" aria-label={words.changeLabel(person.email)}>
          {words.change}
        </button>
      </form>
      <form method="post" action={`/employer/people/${person.id}/remove`}>
        <button type="submit" aria-label={words.removeLabel(person.email)} aria-describedby="remove-hint">
          {words.remove}
        </button>
      </form>
    </>
  );
}

export function PeoplePage(props: { lang: Lang; me: number; people: Person[]; invitations: PendingInvitation[]; done?: Done; form?: InviteForm; roleError?: RoleError }) {
  const { lang, form } = props;
  const words = PEOPLE_WORDS[lang];
  return (
    <>
      {props.done ? (
        <p class="notice" role="status">
          {words[props.done]}
        </p>
      ) : null}
      <p>{words.rolesHint}</p>
      <p>
        <small id="remove-hint">{words.removeHint}</small>
      </p>
      <DataTable
        caption={words.caption}
        empty=""
        rows={props.people}
        columns={[
          { header: words.email, cell: (person) => (person.id === props.me ? `${person.email} ${words.you}` : person.email) },
          { header: words.role, cell: (person) => words.roles[person.role] },
          { header: words.since, cell: (person) => formatDate(lang, new Date(person.createdAt).toISOString()) },
          { header: words.actions, cell: (person) => <PersonActions lang={lang} person={person} error={props.roleError?.personId === person.id ? props.roleError.message : undefined} /> },
        ]}
      />
      <DataTable
        caption={words.invitationsCaption}
        empty={words.noInvitations}
        rows={props.invitations}
        columns={[
          { header: words.email, cell: (invitation) => invitation.email },
          { header: words.role, cell: (invitation) => words.roles[invitation.role] },
          { header: words.invitedBy, cell: (invitation) => (invitation.invitedBy === "operator" ? words.operator : invitation.invitedBy) },
          { header: words.expires, cell: (invitation) => formatDate(lang, new Date(invitation.expiresAt).toISOString()) },
        ]}
      />
      <h2>{words.inviteTitle}</h2>
      <form method="post" action="/employer/people">
        <p>{words.inviteHint}</p>
        <Field id="email" label={words.email} error={form?.errors.email}>
          {(aria) => <input id="email" name="email" type="email" autocomplete="off" required value={form?.email ?? ""} {...aria} />}
        </Field>
        <Field id="role" label={words.role} error={form?.errors.role}>
          {(aria) => <RoleSelect id="role" name="role" value={form?.role ?? "recruiter"} lang={lang} aria={aria} />}
        </Field>
        <button type="submit">{words.invite}</button>
      </form>
    </>
  );
}
