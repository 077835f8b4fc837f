import { SUBSCRIBABLE_EVENT_TYPES } from "../../events/types";
import type { deliveryLog, getEndpoint } from "../../webhooks/service";
import { Field, FieldError, tieToError } from "../../ui/fields";
import { LOCALE, type Lang } from "../../ui/i18n";
import { DataTable } from "../../ui/table";
import { SHELL_WORDS } from "../shell";
import { WEBHOOK_WORDS } from "./words";

// DESIGN 13, 25: what the webhooks pages show — the endpoints, the form that adds or changes one,
// a secret shown once, an endpoint's actions and its delivery log.

type Endpoint = Awaited<ReturnType<typeof getEndpoint>>;
type Delivery = Awaited<ReturnType<typeof deliveryLog>>["data"][number];

/** The form's fields as typed: `all` is the "all events" box, `events` the types ticked. */
export interface EndpointValues {
  url: string;
  all: boolean;
  events: string[];
  description: string;
  enabled: boolean;
}

export type EndpointField = "url" | "events" | "description";
export type EndpointErrors = Partial<Record<EndpointField, string>>;

/** An endpoint as its change form shows it (`events: []` is every type). */
export const valuesOf = (endpoint: Endpoint): EndpointValues => ({
  url: endpoint.url,
  all: endpoint.events.length === 0,
  events: endpoint.events,
  description: endpoint.description ?? "",
  enabled: endpoint.enabled,
});

// Made once per isolate, as src/ui/i18n.ts's dates: a delivery log needs the time of day too.
const MOMENTS = {
  en: new Intl.DateTimeFormat(LOCALE.en, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
  fr: new Intl.DateTimeFormat(LOCALE.fr, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
};

function Moment(props: { lang: Lang; iso: string }) {
  return <time datetime={props.iso}>{`${MOMENTS[props.lang].format(new Date(props.iso))} UTC`}</time>;
}

function EventList(props: { lang: Lang; events: string[] }) {
  if (props.events.length === 0) return <>{WEBHOOK_WORDS[props.lang].allEvents}</>;
  return (
    <>
      {props.events.map((type, i) => (
        <>
          {i ? ", " : ""}
          <code>{type}</code>
        </>
      ))}
    </>
  );
}

const eventId = (type: string) => `event-${type.replace(/[^a-z]/g, "-")}`;

/** The fields an endpoint is added or changed with; `enabled` only on change. */
function EndpointFields(props: { lang: Lang; values: EndpointValues; errors: EndpointErrors; withEnabled?: boolean }) {
  const words = WEBHOOK_WORDS[props.lang];
  const { values, errors } = props;
  return (
    <>
      <Field id="url" label={words.url} hint={words.urlHint} error={errors.url}>
        {(aria) => <input id="url" name="url" type="url" required maxlength={2000} value={values.url} {...aria} />}
      </Field>
      <fieldset id="events" {...tieToError("events", errors.events)}>
        <legend>{words.events}</legend>
        <p>
          <input type="checkbox" id={eventId("all")} name="events" value="all" checked={values.all} /> <label for={eventId("all")}>{words.allEvents}</label>
        </p>
        {SUBSCRIBABLE_EVENT_TYPES.map((type) => (
          <p>
            <input type="checkbox" id={eventId(type)} name="events" value={type} checked={!values.all && values.events.includes(type)} />{" "}
            <label for={eventId(type)}>
              <code>{type}</code>: {words.eventTypes[type]}
            </label>
          </p>
        ))}
        <FieldError id="events" message={errors.events} />
      </fieldset>
      <Field id="description" label={words.description} hint={words.descriptionHint} error={errors.description}>
        {(aria) => <input id="description" name="description" type="text" maxlength={200} value={values.description} {...aria} />}
      </Field>
      {props.withEnabled ? (
        <fieldset>
          <legend>{words.deliveries}</legend>
          <label>
            <input type="checkbox" name="enabled" value="yes" checked={values.enabled} aria-describedby="enabled-hint" /> {words.enabledLabel}
          </label>
          <small id="enabled-hint">{words.enabledHint}</small>
        </fieldset>
      ) : null}
    </>
  );
}

function NotSaved(props: { lang: Lang; errors?: EndpointErrors; problem?: string }) {
  if (!props.problem && !(props.errors && Object.keys(props.errors).length)) return null;
  return (
    <p role="alert" class="error">
      {props.problem ?? WEBHOOK_WORDS[props.lang].notSaved}
    </p>
  );
}

/** GET /employer/webhooks: the endpoints, and the form that adds one. */
export function EndpointsBody(props: { lang: Lang; endpoints: Endpoint[]; values: EndpointValues; errors?: EndpointErrors; problem?: string; deleted?: boolean }) {
  const words = WEBHOOK_WORDS[props.lang];
  return (
    <>
      {props.deleted ? <p role="status">{words.deleted}</p> : null}
      <p>{words.intro}</p>
      <DataTable
        caption={words.endpoints}
        empty={words.none}
        rows={props.endpoints}
        columns={[
          { header: words.url, cell: (endpoint) => <a href={`/employer/webhooks/${endpoint.id}`}>{endpoint.url}</a> },
          { header: words.events, cell: (endpoint) => <EventList lang={props.lang} events={endpoint.events} /> },
          { header: words.description, cell: (endpoint) => endpoint.description ?? "" },
          { header: words.state, cell: (endpoint) => (endpoint.enabled ? words.enabled : words.disabled) },
          { header: words.created, cell: (endpoint) => <Moment lang={props.lang} iso={endpoint.createdAt} /> },
        ]}
      />
      <h2>{words.addTitle}</h2>
      <NotSaved lang={props.lang} errors={props.errors} problem={props.problem} />
      <form method="post" action="/employer/webhooks">
        <EndpointFields lang={props.lang} values={props.values} errors={props.errors ?? {}} />
        <button type="submit">{words.add}</button>
      </form>
    </>
  );
}

/** The secret of a new endpoint or a rotation: shown in this answer only. */
export function SecretBody(props: { lang: Lang; endpoint: Endpoint; secret: string; rotatedHours?: number }) {
  const words = WEBHOOK_WORDS[props.lang];
  return (
    <>
      <p role="status">{props.rotatedHours === undefined ? words.secretIntro : words.rotated(props.rotatedHours)}</p>
      {props.rotatedHours === undefined ? null : <p>{words.secretIntro}</p>}
      <dl>
        <dt>{words.url}</dt>
        <dd>{props.endpoint.url}</dd>
        <dt>{words.secret}</dt>
        <dd>
          <code>{props.secret}</code>
        </dd>
      </dl>
      <p>
        <a href={`/employer/webhooks/${props.endpoint.id}`}>{words.toEndpoint}</a>
      </p>
    </>
  );
}

/** The delivery log's query, as the API's: `status`, `page`, `pageSize`. */
interface LogQuery {
  status?: "pending" | "delivered" | "failed";
  page: number;
  pageSize: number;
}

function logAddress(endpointId: number, query: LogQuery, page: number): string {
  const params = new URLSearchParams({ ...(query.status ? { status: query.status } : {}), page: String(page), pageSize: String(query.pageSize) });
  return `/employer/webhooks/${endpointId}?${params}`;
}

function DeliveryLog(props: { lang: Lang; endpointId: number; query: LogQuery; deliveries: Delivery[]; total: number }) {
  const words = WEBHOOK_WORDS[props.lang];
  const { query, endpointId } = props;
  const pages = Math.ceil(props.total / query.pageSize);
  return (
    <section aria-labelledby="log">
      <h2 id="log">{words.log}</h2>
      <p>{words.logIntro}</p>
      <form method="get" action={`/employer/webhooks/${endpointId}`}>
        <p>
          <label for="log-status">{words.status}</label>
          <select id="log-status" name="status">
            <option value="" selected={!query.status}>
              {words.anyStatus}
            </option>
            {(["pending", "delivered", "failed"] as const).map((status) => (
              <option value={status} selected={query.status === status}>
                {words.statuses[status]}
              </option>
            ))}
          </select>
        </p>
        <input type="hidden" name="pageSize" value={String(query.pageSize)} />
        <button type="submit">{words.show}</button>
      </form>
      <DataTable
        caption={words.logCaption(query.page, pages, props.total)}
        empty={words.noDeliveries}
        rows={props.deliveries}
        columns={[
          { header: words.message, cell: (delivery) => <code>{delivery.id}</code> },
          { header: words.type, cell: (delivery) => <code>{delivery.type}</code> },
          { header: words.created, cell: (delivery) => <Moment lang={props.lang} iso={delivery.createdAt} /> },
          { header: words.status, cell: (delivery) => words.statuses[delivery.status] },
          { header: words.attempts, cell: (delivery) => String(delivery.attempts) },
          { header: words.lastStatusCode, cell: (delivery) => (delivery.lastStatusCode === null ? "" : String(delivery.lastStatusCode)) },
          { header: words.nextAttemptAt, cell: (delivery) => (delivery.nextAttemptAt ? <Moment lang={props.lang} iso={delivery.nextAttemptAt} /> : "") },
          {
            header: words.action,
            cell: (delivery) => (
              <form method="post" action={`/employer/webhooks/${endpointId}/deliveries/${delivery.id}/retry`}>
                <button type="submit" aria-label={words.retryLabel(delivery.id)}>
                  {words.retry}
                </button>
              </form>
            ),
          },
        ]}
      />
      {query.page > 1 || query.page < pages ? (
        <p>
          {query.page > 1 ? (
            <a href={logAddress(endpointId, query, query.page - 1)} rel="prev">
              {words.previous}
            </a>
          ) : null}{" "}
          {query.page < pages ? (
            <a href={logAddress(endpointId, query, query.page + 1)} rel="next">
              {words.next}
            </a>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}

type EndpointNotice = "saved" | "tested" | "retried";

/** GET /employer/webhooks/{id}: the endpoint, a test event, its delivery log, its change form, rotation and deletion. */
export function EndpointBody(props: {
  lang: Lang;
  endpoint: Endpoint;
  values: EndpointValues;
  errors?: EndpointErrors;
  confirmError?: string;
  notice?: EndpointNotice;
  log: { query: LogQuery; deliveries: Delivery[]; total: number };
  overlapHours: number;
}) {
  const words = WEBHOOK_WORDS[props.lang];
  const { endpoint } = props;
  const base = `/employer/webhooks/${endpoint.id}`;
  return (
    <>
      {props.notice ? <p role="status">{words[props.notice]}</p> : null}
      <dl>
        <dt>{words.url}</dt>
        <dd>{endpoint.url}</dd>
        <dt>{words.events}</dt>
        <dd>
          <EventList lang={props.lang} events={endpoint.events} />
        </dd>
        <dt>{words.description}</dt>
        <dd>{endpoint.description ?? ""}</dd>
        <dt>{words.state}</dt>
        <dd>{endpoint.enabled ? words.enabled : words.disabled}</dd>
        <dt>{words.created}</dt>
        <dd>
          <Moment lang={props.lang} iso={endpoint.createdAt} />
        </dd>
      </dl>
      <section aria-labelledby="test">
        <h2 id="test">{words.testTitle}</h2>
        <form method="post" action={`${base}/test`}>
          <p>
            <small id="test-hint">{words.testHint}</small>
          </p>
          <button type="submit" aria-describedby="test-hint">
            {words.test}
          </button>
        </form>
      </section>
      <DeliveryLog lang={props.lang} endpointId={endpoint.id} query={props.log.query} deliveries={props.log.deliveries} total={props.log.total} />
      <section aria-labelledby="change">
        <h2 id="change">{words.change}</h2>
        <NotSaved lang={props.lang} errors={props.errors} />
        <form method="post" action={base}>
          <EndpointFields lang={props.lang} values={props.values} errors={props.errors ?? {}} withEnabled />
          <button type="submit">{words.save}</button>
        </form>
      </section>
      <section aria-labelledby="rotate">
        <h2 id="rotate">{words.rotateTitle}</h2>
        <form method="post" action={`${base}/rotate-secret`}>
          <p>
            <small id="rotate-hint">{words.rotateHint(props.overlapHours)}</small>
          </p>
          <button type="submit" aria-describedby="rotate-hint">
            {words.rotate}
          </button>
        </form>
      </section>
      <section aria-labelledby="delete">
        <h2 id="delete">{words.deleteTitle}</h2>
        <form method="post" action={`${base}/delete`}>
          <p>
            <small id="delete-hint">{words.deleteHint}</small>
          </p>
          <p>
            <input type="checkbox" id="confirm" name="confirm" value="yes" {...tieToError("confirm", props.confirmError)} />{" "}
            <label for="confirm" class="inline">
              {SHELL_WORDS[props.lang].confirm}
            </label>{" "}
            <FieldError id="confirm" message={props.confirmError} inline />
          </p>
          <button type="submit" class="danger" aria-describedby="delete-hint">
            {words.delete}
          </button>
        </form>
      </section>
    </>
  );
}
