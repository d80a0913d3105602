/**
 * Webhooks: addresses of the customer's systems that hear what happens (Standard Webhooks, each request signed). Add one
 * with the events it hears (its signing secret shown once), send it a test, read its deliveries (delivered, retrying
 * with the next attempt's time, failed, with the last answer's status), and remove it after confirming. URLs and
 * events are rendered as text.
 */
import { useState, type FormEvent } from "react"

import { longDate } from "~core/format"
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint } from "~core/webhooks"
import { DataTable, type DataColumn } from "~site/shared/DataTable"
import { attempt, failureText } from "~site/shared/failure-text"
import { ShownOnce } from "~site/shared/ShownOnce"
import { ConfirmDialog } from "~ui/ConfirmDialog"
import { Checkbox, TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { createWebhook, removeWebhook, sendTestEvent, useDeliveries, useWebhooks, useWebhooksChanged } from "./webhooks-requests"

const smallButton = `${buttonStyles.secondary} !px-3 !py-1.5 whitespace-nowrap text-xs`
const STATUS_WORDS: Record<WebhookDelivery["status"], string> = { delivered: "Delivered", retrying: "Retrying", failed: "Failed", pending: "Waiting" }
const timeOf = (iso: string) => new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })

function AddWebhook({ disabled }: { disabled: boolean }) {
  const changed = useWebhooksChanged()
  const [url, setUrl] = useState("")
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENT_TYPES])
  const [missing, setMissing] = useState<string | null>(null)
  const [secret, setSecret] = useState<string | null>(null)
  const adding = useFormMutation({
    mutationFn: createWebhook,
    onSuccess: (created) => {
      setSecret(created.secret)
      setUrl("")
      void changed()
    }
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (adding.isRunning()) return
    const problem = !url.trim() ? "Enter the endpoint's URL." : events.length === 0 ? "Choose at least one event." : null
    setMissing(problem)
    if (problem) return
    adding.mutate({ url: url.trim(), events: events as WebhookEndpoint["events"] })
  }
  return (
    <form className="space-y-3" onSubmit={submit} noValidate aria-label="Add a webhook">
      <TextField label="Endpoint URL" type="url" placeholder="https://hooks.example.com/image-query-ai" autoComplete="off" spellCheck={false} value={url} onChange={(event) => setUrl(event.target.value)} />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-gray-700">Events</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <Checkbox key={type} label={<code className="text-xs">{type}</code>} checked={events.includes(type)} onChange={(on) => setEvents((chosen) => (on ? [...chosen, type] : chosen.filter((one) => one !== type)))} />
          ))}
        </div>
      </fieldset>
      {missing && <Notice>{missing}</Notice>}
      {adding.isError && <Notice>{failureText(adding.error)}</Notice>}
      {secret && <ShownOnce title="The endpoint's signing secret." value={secret} copyLabel="Copy secret" />}
      <button type="submit" className={buttonStyles.primary} disabled={disabled || adding.isPending}>
        {adding.isPending ? "Adding..." : "Add webhook"}
      </button>
    </form>
  )
}

const DELIVERY_COLUMNS: readonly DataColumn<WebhookDelivery>[] = [
  { header: "Event", cellClassName: "font-mono", cell: (delivery) => delivery.event },
  {
    header: "Status",
    cell: (delivery) => `${STATUS_WORDS[delivery.status]}${delivery.status === "retrying" && delivery.nextAttemptAt ? `, next at ${timeOf(delivery.nextAttemptAt)}` : ""}`
  },
  { header: "Attempts", cell: (delivery) => delivery.attempts },
  { header: "Last answer", cell: (delivery) => delivery.lastStatusCode ?? "none" },
  { header: "Sent", cell: (delivery) => timeOf(delivery.lastAttemptAt ?? delivery.createdAt) }
]

function Deliveries({ id, url }: { id: string; url: string }) {
  const deliveries = useDeliveries(id)
  if (deliveries.isPending) return <Spinner label="Loading the deliveries" />
  if (deliveries.isError) return <Notice>{failureText(deliveries.error)}</Notice>
  return (
    <DataTable
      caption="Deliveries, newest first"
      columns={DELIVERY_COLUMNS}
      rows={deliveries.data}
      rowKey={(delivery) => delivery.id}
      empty="Nothing sent yet."
      scroll="sideways"
      regionLabel={`Deliveries to ${url}`}
      compact
    />
  )
}

function EndpointItem({ endpoint }: { endpoint: WebhookEndpoint }) {
  const changed = useWebhooksChanged()
  const [open, setOpen] = useState(false)
  const testing = useFormMutation({
    mutationFn: () => sendTestEvent(endpoint.id),
    onSuccess: () => {
      toast.success("A webhook.test event is on its way.")
      setOpen(true)
      void changed(endpoint.id)
    }
  })
  const removing = useFormMutation({ mutationFn: () => removeWebhook(endpoint.id) })
  return (
    <li className="space-y-3 px-4 py-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-all font-medium">{endpoint.url}</p>
          <p className="text-gray-600">
            {endpoint.events.join(", ")} · added on {longDate(endpoint.createdAt)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className={smallButton} disabled={testing.isPending} aria-label={`Send a test to ${endpoint.url}`} onClick={() => !testing.isRunning() && testing.mutate()}>
            {testing.isPending ? "Sending..." : "Send a test"}
          </button>
          <button type="button" className={smallButton} aria-expanded={open} aria-label={`${open ? "Hide deliveries" : "Deliveries"} to ${endpoint.url}`} onClick={() => setOpen((shown) => !shown)}>
            {open ? "Hide deliveries" : "Deliveries"}
          </button>
          <ConfirmDialog
            trigger={{ label: "Remove", className: smallButton, accessibleName: `Remove ${endpoint.url}` }}
            title="Remove this webhook?"
            description={`${endpoint.url} hears nothing more from Image Query AI; events not yet delivered to it are dropped.`}
            confirm={{ label: "Remove webhook", busyLabel: "Removing...", className: buttonStyles.danger }}
            onConfirm={(close) =>
              attempt(removing.mutateAsync, async () => {
                close()
                toast.success("The webhook is removed.")
                await changed()
              })
            }
          />
        </div>
      </div>
      {testing.isError && <Notice>{failureText(testing.error)}</Notice>}
      {open && <Deliveries id={endpoint.id} url={endpoint.url} />}
    </li>
  )
}

export function WebhooksCard() {
  const webhooks = useWebhooks()
  if (webhooks.isPending) return <Spinner label="Loading webhooks" />
  if (webhooks.isError) return <Notice>{failureText(webhooks.error)}</Notice>
  return (
    <div className="space-y-4 text-sm">
      <p className="text-gray-700">Your systems hear what happens: usage thresholds, API keys, the subscription and members. Each request is signed (Standard Webhooks) and retried for a day when your endpoint fails.</p>
      {webhooks.data.length === 0 ? (
        <p className="text-gray-600">No webhook yet.</p>
      ) : (
        <ul className="divide-y divide-gray-200 rounded-xl border border-gray-200" aria-label="Your webhooks">
          {webhooks.data.map((endpoint) => (
            <EndpointItem key={endpoint.id} endpoint={endpoint} />
          ))}
        </ul>
      )}
      <AddWebhook disabled={webhooks.data.length >= MAX_WEBHOOK_ENDPOINTS} />
    </div>
  )
}
