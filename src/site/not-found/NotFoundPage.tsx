import { Link, useNavigate } from "react-router"

import { ArrowLeft, Home } from "~ui/icons"
import { buttonStyles } from "~ui/styles"
import { PageTitle } from "~site/shared/PageTitle"

export default function NotFoundPage() {
  const navigate = useNavigate()
  const goBack = () => {
    // A page opened in a new tab has no history: going back would do nothing, so go home.
    if (window.history.length > 1) navigate(-1)
    else navigate("/")
  }

  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <PageTitle title="Page not found" />
      <p className="text-6xl font-bold text-brand-primary">404</p>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Page not found</h1>
      <p className="mt-3 text-gray-600">
        The page you are looking for does not exist or has moved.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <button type="button" onClick={goBack} className={buttonStyles.secondary}>
          <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Go back
        </button>
        <Link to="/" className={buttonStyles.primary}>
          <Home aria-hidden="true" className="h-4 w-4" /> Go home
        </Link>
      </div>
    </section>
  )
}
