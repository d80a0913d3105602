/**
 * /admin/feedback: the list of feedback by status, one item's details with its images and replies, and the admin's
 * actions (status, reply, delete), each a react-query mutation whose answer replaces the item in the cached page.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"

import { useSession } from "~site-session/session-store"
import { FEATURE_FLAGS } from "~core/feature-flags"
import {
  FEEDBACK_ADMIN_TEXTS as TEXTS,
  FEEDBACK_STATUSES,
  type Feedback,
  type FeedbackStatus
} from "~core/admin/feedback"
import { Pager } from "~ui/Pager"
import { CompactSelect, TextareaField } from "~ui/fields"
import { MessageCircle, Paperclip, Trash2 } from "~ui/icons"
import { Notice } from "~ui/Notice"
import { PressedButtons } from "~ui/PressedButtons"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { PageTitle } from "~site/shared/PageTitle"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { adminKeys, deleteFeedback, fetchFeedbackPage, replyToFeedback, updateFeedbackStatus, type FeedbackFilter, type FeedbackPage } from "./admin-requests"
import { FeedbackImage, FeedbackImageProvider } from "./feedback-images"
import { ImageViewer } from "./ImageViewer"

export const FEEDBACK_THUMBNAILS_SHOWN = 3

const FILTERS: readonly FeedbackFilter[] = ["all", ...FEEDBACK_STATUSES]

const STATUS_STYLES: Record<FeedbackStatus, string> = {
  pending: "bg-amber-100 text-amber-800",
  replied: "bg-emerald-100 text-emerald-800",
  closed: "bg-gray-200 text-gray-700"
}

const formatTime = (iso: string) => new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

function StatusBadge({ status }: { status: FeedbackStatus }) {
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLES[status]}`}>{status}</span>
}

function Thumbnails({ images }: { images: string[] }) {
  if (!images.length) return null
  const more = images.length - FEEDBACK_THUMBNAILS_SHOWN
  return (
    <span className="mt-2 flex items-center gap-1" data-testid="row-thumbnails">
      {images.slice(0, FEEDBACK_THUMBNAILS_SHOWN).map((url, index) => (
        <FeedbackImage key={url} url={url} alt={`Attachment ${index + 1}`} compact className="h-10 w-10 rounded object-cover ring-1 ring-gray-200" />
      ))}
      {more > 0 && <span className="flex h-10 w-10 items-center justify-center rounded bg-gray-100 text-xs font-medium text-gray-600">+{more}</span>}
    </span>
  )
}

function FeedbackRow({ item, selected, onSelect, onDelete, deleting }: { item: Feedback; selected: boolean; onSelect: () => void; onDelete: () => void; deleting: boolean }) {
  return (
    <li className={`flex gap-2 border-b border-gray-100 p-3 last:border-b-0 ${selected ? "bg-blue-50" : "hover:bg-gray-50"}`}>
      <button type="button" onClick={onSelect} aria-current={selected} className="min-w-0 flex-1 text-left focus-ring">
        <span className="flex items-center justify-between gap-2">
          <span className="truncate text-sm font-semibold">{item.email}</span>
          <StatusBadge status={item.status} />
        </span>
        <span className="mt-1 line-clamp-2 block break-words text-sm text-gray-600">{item.message}</span>
        <Thumbnails images={item.images} />
        <span className="mt-2 flex items-center gap-3 text-xs text-gray-500">
          <span className="inline-flex items-center gap-1" title="Attachments">
            <Paperclip aria-hidden="true" className="h-3 w-3" /> {item.images.length}
            <span className="sr-only">attachments</span>
          </span>
          <span className="inline-flex items-center gap-1" title="Replies">
            <MessageCircle aria-hidden="true" className="h-3 w-3" /> {item.replies.length}
            <span className="sr-only">replies</span>
          </span>
          <time dateTime={item.createdAt}>{formatTime(item.createdAt)}</time>
        </span>
      </button>
      <button
        type="button"
        onClick={onDelete}
        disabled={deleting}
        aria-label={`Delete feedback from ${item.email}`}
        className="self-start rounded-md p-1.5 text-gray-400 hover:bg-red-50 hover:text-red-600 focus-visible:outline focus-visible:outline-2 focus-visible:outline-red-600 disabled:opacity-50"
      >
        <Trash2 aria-hidden="true" className="h-4 w-4" />
      </button>
    </li>
  )
}

function FeedbackDetail({ item, onChanged }: { item: Feedback; onChanged: (feedback: Feedback) => void }) {
  const user = useSession((state) => state.user)
  const [reply, setReply] = useState("")
  const [replyError, setReplyError] = useState<string | null>(null)
  const [viewerIndex, setViewerIndex] = useState<number | null>(null)

  const statusChange = useFormMutation({
    mutationFn: (status: FeedbackStatus) => updateFeedbackStatus(item.id, status),
    onSuccess: (feedback) => {
      onChanged(feedback)
      toast.success(TEXTS.statusUpdated)
    },
    onError: () => toast.error(TEXTS.statusFailed)
  })

  const replySend = useFormMutation({
    mutationFn: ({ message, adminEmail }: { message: string; adminEmail: string }) => replyToFeedback(item.id, message, adminEmail),
    onSuccess: (feedback) => {
      onChanged(feedback)
      setReply("")
      toast.success(TEXTS.replySent)
    },
    onError: () => toast.error(TEXTS.replyFailed)
  })

  const sendReply = () => {
    if (!reply.trim()) {
      setReplyError(TEXTS.replyEmpty)
      return
    }
    if (!user) {
      setReplyError(TEXTS.notLoggedIn)
      return
    }
    setReplyError(null)
    if (!replySend.isRunning()) replySend.mutate({ message: reply.trim(), adminEmail: user.email })
  }

  return (
    <article aria-label={`Feedback from ${item.email}`} className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="break-all text-lg font-semibold">{item.email}</h2>
          <p className="mt-1 text-xs text-gray-500">
            Submitted <time dateTime={item.createdAt}>{formatTime(item.createdAt)}</time>
            {item.updatedAt !== item.createdAt && (
              <>
                {" · "}Updated <time dateTime={item.updatedAt}>{formatTime(item.updatedAt)}</time>
              </>
            )}
          </p>
        </div>
        <CompactSelect label="Status" value={item.status} disabled={statusChange.isPending} onChange={(event) => !statusChange.isRunning() && statusChange.mutate(event.target.value as FeedbackStatus)}>
          {FEEDBACK_STATUSES.map((status) => (
            <option key={status} value={status}>
              {capitalise(status)}
            </option>
          ))}
        </CompactSelect>
      </header>

      <section aria-label="Message">
        <h3 className="text-sm font-semibold text-gray-700">Message</h3>
        <p className="mt-2 whitespace-pre-wrap break-words rounded-lg bg-gray-50 p-3 text-sm text-gray-800">{item.message}</p>
      </section>

      {item.images.length > 0 && (
        <section aria-label="Attached images">
          <h3 className="text-sm font-semibold text-gray-700">Attached images ({item.images.length})</h3>
          <ul className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-4">
            {item.images.map((url, index) => (
              <li key={url}>
                <button type="button" onClick={() => setViewerIndex(index)} aria-label={`Open image ${index + 1}`} className="block w-full overflow-hidden rounded-lg ring-1 ring-gray-200 hover:ring-brand-primary focus-ring">
                  <FeedbackImage url={url} alt={`Attached image ${index + 1}`} className="aspect-square h-full w-full object-cover" />
                </button>
              </li>
            ))}
          </ul>
          <ImageViewer images={item.images} index={viewerIndex} onIndexChange={setViewerIndex} onClose={() => setViewerIndex(null)} />
        </section>
      )}

      <section aria-label="Replies">
        <h3 className="text-sm font-semibold text-gray-700">Replies ({item.replies.length})</h3>
        {item.replies.length > 0 && (
          <ol className="mt-2 space-y-3">
            {item.replies.map((entry, index) => (
              <li key={entry.id} className="rounded-lg border border-blue-100 bg-blue-50 p-3">
                <p className="text-xs text-gray-600">
                  <span className="font-semibold">Reply #{index + 1}</span> · {entry.adminEmail || "Admin"} · <time dateTime={entry.createdAt}>{formatTime(entry.createdAt)}</time>
                </p>
                <p className="mt-1 whitespace-pre-wrap break-words text-sm text-gray-800">{entry.message}</p>
              </li>
            ))}
          </ol>
        )}
        <div className="mt-4">
          <TextareaField
            label="Your reply"
            rows={4}
            value={reply}
            onChange={(event) => {
              setReply(event.target.value)
              setReplyError(null)
            }}
            hint={FEATURE_FLAGS.feedback.emailNotifications ? TEXTS.replyNote : undefined}
            error={replyError ?? undefined}
          />
          <button type="button" className={`mt-3 ${buttonStyles.primary}`} disabled={!reply.trim() || replySend.isPending} onClick={sendReply}>
            {replySend.isPending ? "Sending..." : "Send Reply"}
          </button>
        </div>
      </section>
    </article>
  )
}

function Inbox() {
  const queryClient = useQueryClient()
  const [filter, setFilter] = useState<FeedbackFilter>("all")
  const [page, setPage] = useState(1)
  const [selected, setSelected] = useState<Feedback | null>(null)
  const queryKey = adminKeys.feedbackPage(filter, page)
  const list = useQuery({ queryKey, queryFn: () => fetchFeedbackPage(filter, page), staleTime: 0 })

  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.feedback })

  /** The server's answer replaces the open item and its row at once; the refetch brings the counts. */
  const replaceItem = (feedback: Feedback) => {
    setSelected(feedback)
    queryClient.setQueryData<FeedbackPage>(queryKey, (current) =>
      current ? { ...current, data: current.data.map((item) => (item.id === feedback.id ? feedback : item)) } : current
    )
    void refresh()
  }

  const removal = useFormMutation({
    mutationFn: (item: Feedback) => deleteFeedback(item.id),
    onSuccess: (_, item) => {
      if (selected?.id === item.id) setSelected(null)
      toast.success(TEXTS.deleted)
      // Returned, so the row stays disabled until the list without it has arrived.
      return refresh()
    },
    onError: () => toast.error(TEXTS.deleteFailed)
  })
  const deletingId = removal.isPending ? removal.variables.id : null

  const remove = (item: Feedback) => {
    if (window.confirm(TEXTS.deleteConfirm)) removal.mutate(item)
  }

  const meta = list.data?.meta
  const items = list.data?.data ?? []
  const pages = meta ? Math.max(1, Math.ceil(meta.total / meta.pageSize)) : 1

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <section aria-labelledby="feedback-list-heading" className="self-start rounded-2xl border border-gray-200 bg-white shadow-sm">
        <PressedButtons
          label="Filter by status"
          options={FILTERS}
          value={filter}
          onChange={(name) => {
            setFilter(name)
            setPage(1)
          }}
          className="border-b border-gray-200 p-2"
        >
          {(name) => (
            <>
              {capitalise(name)}
              {name !== "all" && meta && <span className="opacity-80"> ({meta.counts[name]})</span>}
            </>
          )}
        </PressedButtons>
        <h2 id="feedback-list-heading" className="px-4 pt-3 text-sm font-semibold text-gray-700">
          Feedback ({meta ? meta.total : "…"})
        </h2>
        <div className="mt-2 max-h-96 overflow-y-auto" data-testid="feedback-list">
          {list.isPending ? (
            <Spinner label="Loading feedback" />
          ) : list.isError ? (
            <div className="p-4">
              <Notice>{TEXTS.fetchFailed}</Notice>
            </div>
          ) : items.length === 0 ? (
            <p className="p-6 text-center text-sm text-gray-500">{filter === "all" ? TEXTS.noFeedback : TEXTS.noStatusFeedback(filter)}</p>
          ) : (
            <ul>
              {items.map((item) => (
                <FeedbackRow key={item.id} item={item} selected={selected?.id === item.id} onSelect={() => setSelected(item)} onDelete={() => remove(item)} deleting={deletingId === item.id} />
              ))}
            </ul>
          )}
        </div>
        <Pager page={page} pages={pages} onPage={setPage} look="inCard" />
      </section>
      <section aria-label="Feedback details" className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
        {selected ? <FeedbackDetail key={selected.id} item={selected} onChanged={replaceItem} /> : <p className="py-16 text-center text-sm text-gray-500">{TEXTS.selectOne}</p>}
      </section>
    </div>
  )
}

export default function FeedbackInboxPage() {
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-10 sm:px-6 lg:px-8">
      <PageTitle title="Feedback" />
      <header>
        <h1 className="text-3xl font-bold tracking-tight">Feedback</h1>
        <p className="mt-1 text-gray-600">What users sent from the feedback form, with their images and your replies.</p>
      </header>
      <FeedbackImageProvider>
        <Inbox />
      </FeedbackImageProvider>
    </div>
  )
}
