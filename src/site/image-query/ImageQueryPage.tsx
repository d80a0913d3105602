/**
 * The site's preview of Image Query AI, on generated sample images: the extension's controls and section bar (radix Tabs,
 * as in the side panel), the filters working on the core size rule, and the rest inert, saying so.
 */
import { useId, useMemo, useState, type ReactNode } from "react"
import { Switch, Tabs } from "radix-ui"
import { Link } from "react-router"

import { DEFAULT_IMAGE_FILTER, filterImagesBySize, SIZE_FILTER_LABELS, SIZE_FILTERS, type SizeFilter } from "~core/images/image-size"
import { VQA_MODELS } from "~core/analysis/vqa"
import { History, Images, MessageCircle, Puzzle, Settings } from "~ui/icons"
import { buttonStyles } from "~ui/styles"
import { PageTitle } from "~site/shared/PageTitle"

import { generateSampleImages, SAMPLE_IMAGE_TYPES, SAMPLE_TYPE_LABELS, type SampleImage, type SampleImageType } from "./sample-images"

const QUERY_MODES = ["Normal", "Detailed", "Brief"] as const
const DEFAULT_MODEL = "gpt-4o-mini"

const TABS = [
  { id: "images", label: "Images", Icon: Images },
  { id: "chat", label: "Chat", Icon: MessageCircle },
  { id: "history", label: "History", Icon: History },
  { id: "settings", label: "Settings", Icon: Settings }
] as const
type TabId = (typeof TABS)[number]["id"]

const PLACEHOLDERS: Record<Exclude<TabId, "images">, string> = {
  chat: "Chat about your images comes with the extension's side panel. This preview has no chat.",
  history: "Your past questions and answers will be listed here. This preview keeps no history.",
  settings: "Settings for models, filters and shortcuts live in the extension. This preview has none to change."
}

const selectClass =
  "mt-1 block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"

function Control({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId()
  return (
    <div>
      <label htmlFor={id} className="block text-xs font-semibold uppercase tracking-wide text-gray-600">
        {label}
      </label>
      {children(id)}
    </div>
  )
}

/** A button of the mock page that does nothing: it says so rather than pretending. */
function InertButton({ children }: { children: ReactNode }) {
  return (
    <button type="button" aria-disabled="true" title="Available in the extension" className="rounded-md px-3 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-100 aria-disabled:cursor-not-allowed">
      {children}
    </button>
  )
}

function ImageGrid({ images, selected, onToggle }: { images: SampleImage[]; selected: ReadonlySet<string>; onToggle: (id: string) => void }) {
  if (images.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-gray-300 p-10 text-center text-gray-600">
        No images match these filters. Choose another size, or show small images.
      </p>
    )
  }
  return (
    <ul aria-label="Sample images" className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
      {images.map((image) => {
        const checked = selected.has(image.id)
        return (
          <li key={image.id}>
            <label
              className={`block cursor-pointer overflow-hidden rounded-xl border bg-white shadow-sm focus-within:ring-2 focus-within:ring-brand-primary ${
                checked ? "border-brand-primary ring-2 ring-brand-primary" : "border-gray-200"
              }`}
            >
              <span className="flex aspect-square items-center justify-center bg-gray-100">
                <img src={image.src} alt={`Sample ${SAMPLE_TYPE_LABELS[image.type].toLowerCase()}, ${image.w} by ${image.h} pixels`} className="max-h-full max-w-full object-contain" />
              </span>
              <span className="flex items-center gap-2 px-3 py-2 text-xs text-gray-700">
                <input type="checkbox" checked={checked} onChange={() => onToggle(image.id)} className="h-4 w-4 accent-brand-primary" />
                <span>
                  {image.w} × {image.h} · {SAMPLE_TYPE_LABELS[image.type]}
                </span>
              </span>
            </label>
          </li>
        )
      })}
    </ul>
  )
}

export default function ImageQueryPage() {
  const samples = useMemo(() => generateSampleImages(), [])
  const [tab, setTab] = useState<TabId>("images")
  const [model, setModel] = useState<string>(DEFAULT_MODEL)
  const [queryMode, setQueryMode] = useState<string>(QUERY_MODES[0])
  const [size, setSize] = useState<SizeFilter>(DEFAULT_IMAGE_FILTER.size)
  const [type, setType] = useState<SampleImageType | "any">("any")
  const [hideSmall, setHideSmall] = useState(DEFAULT_IMAGE_FILTER.hideSmall)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const hideSmallId = useId()

  const sized = filterImagesBySize(
    samples.map((image) => ({ ...image, width: image.w, height: image.h })),
    { size, hideSmall }
  )
  const visible = sized.filter((image) => type === "any" || image.type === type)

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })

  return (
    <Tabs.Root asChild value={tab} onValueChange={(value) => setTab(TABS.find((item) => item.id === value)?.id ?? tab)}>
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
        <PageTitle title="Image Query AI" />
        <h1 className="text-3xl font-bold tracking-tight">Image Query AI</h1>
        <div className="mt-2 flex gap-2 rounded-lg border border-blue-200 bg-blue-50 px-4 py-3 text-sm text-blue-900">
          <Puzzle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          <p>
            This is a preview with generated sample images. The real Image Query AI lives in the browser extension, where it finds and analyses the images of any page.{" "}
            <Link to="/register" className="font-semibold underline">
              Get the extension
            </Link>
          </p>
        </div>

        <div className="mt-6">
          {TABS.map(({ id, label }) => (
            <Tabs.Content key={id} value={id} className="focus-ring">
              {id === "images" ? (
                <>
                  <h2 className="sr-only">{label}</h2>
                  <div className="grid gap-4 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-5">
                    <Control label="Model">
                      {(controlId) => (
                        <select id={controlId} value={model} onChange={(event) => setModel(event.target.value)} className={selectClass}>
                          {VQA_MODELS.map((name) => (
                            <option key={name}>{name}</option>
                          ))}
                        </select>
                      )}
                    </Control>
                    <Control label="Query">
                      {(controlId) => (
                        <select id={controlId} value={queryMode} onChange={(event) => setQueryMode(event.target.value)} className={selectClass}>
                          {QUERY_MODES.map((mode) => (
                            <option key={mode}>{mode}</option>
                          ))}
                        </select>
                      )}
                    </Control>
                    <Control label="Size">
                      {(controlId) => (
                        <select id={controlId} value={size} onChange={(event) => setSize(event.target.value as SizeFilter)} className={selectClass}>
                          {SIZE_FILTERS.map((filter) => (
                            <option key={filter} value={filter}>
                              {SIZE_FILTER_LABELS[filter]}
                            </option>
                          ))}
                        </select>
                      )}
                    </Control>
                    <Control label="Type">
                      {(controlId) => (
                        <select id={controlId} value={type} onChange={(event) => setType(event.target.value as SampleImageType | "any")} className={selectClass}>
                          <option value="any">Any</option>
                          {SAMPLE_IMAGE_TYPES.map((name) => (
                            <option key={name} value={name}>
                              {SAMPLE_TYPE_LABELS[name]}
                            </option>
                          ))}
                        </select>
                      )}
                    </Control>
                    <div className="flex items-end">
                      <label htmlFor={hideSmallId} className="flex cursor-pointer items-center gap-3 py-2 text-sm font-medium text-gray-700">
                        <Switch.Root
                          id={hideSmallId}
                          checked={hideSmall}
                          onCheckedChange={setHideSmall}
                          className={`relative inline-flex h-6 w-11 shrink-0 rounded-full transition focus-ring focus-visible:outline-offset-2 ${
                            hideSmall ? "bg-blue-700" : "bg-gray-400"
                          }`}
                        >
                          <Switch.Thumb aria-hidden="true" className={`absolute top-0.5 h-5 w-5 rounded-full bg-white shadow transition ${hideSmall ? "left-[1.375rem]" : "left-0.5"}`} />
                        </Switch.Root>
                        Hide small images
                      </label>
                    </div>
                  </div>

                  <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
                    <div role="group" aria-label="Image source" className="flex gap-1 rounded-lg border border-gray-200 bg-white p-1">
                      <InertButton>All</InertButton>
                      <InertButton>Linked</InertButton>
                      <InertButton>Inline</InertButton>
                    </div>
                    <p role="status" className="text-sm text-gray-600">
                      Showing {visible.length} of {samples.length} images · {selected.size} selected
                    </p>
                    <button type="button" aria-disabled="true" title="Available in the extension" className={`${buttonStyles.primary} aria-disabled:cursor-not-allowed`}>
                      Ask about selected
                    </button>
                  </div>

                  <div className="mt-4">
                    <ImageGrid images={visible} selected={selected} onToggle={toggle} />
                  </div>
                </>
              ) : (
                <div className="rounded-2xl border border-dashed border-gray-300 p-12 text-center">
                  <h2 className="text-lg font-semibold">{label}</h2>
                  <p className="mt-2 text-gray-600">{PLACEHOLDERS[id]}</p>
                </div>
              )}
            </Tabs.Content>
          ))}
        </div>

        <Tabs.List
          aria-label="Image Query AI sections"
          className="sticky bottom-0 z-20 -mx-4 mt-6 flex justify-center gap-1 border-t border-gray-200 bg-white/95 px-2 py-2 backdrop-blur sm:mx-0 sm:rounded-t-2xl sm:border-x"
        >
          {TABS.map(({ id, label, Icon }) => (
            <Tabs.Trigger
              key={id}
              value={id}
              className={`flex min-w-[4.5rem] flex-col items-center gap-0.5 rounded-lg px-3 py-1.5 text-xs font-medium focus-ring ${
                tab === id ? "bg-blue-50 text-blue-800" : "text-gray-700 hover:bg-gray-100"
              }`}
            >
              <Icon aria-hidden="true" className="h-5 w-5" />
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      </div>
    </Tabs.Root>
  )
}
