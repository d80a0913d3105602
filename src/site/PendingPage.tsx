import { PageTitle } from "./PageTitle"

/** The heading of a page whose content arrives with a later issue; it offers nothing it cannot do. */
export function PendingPage({ title }: { title: string }) {
  return (
    <section className="mx-auto max-w-5xl px-4 py-16 sm:px-6 lg:px-8">
      <PageTitle title={title} />
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
    </section>
  )
}
