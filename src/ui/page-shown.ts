/**
 * Calls `listener` when the page comes back into view or is focused again (the two often arrive together, so a
 * listener that loads something should skip a load already under way). Answers the function that stops listening.
 */
export function onPageShown(listener: () => void): () => void {
  const whenVisible = () => {
    if (document.visibilityState === "visible") listener()
  }
  document.addEventListener("visibilitychange", whenVisible)
  window.addEventListener("focus", whenVisible)
  return () => {
    document.removeEventListener("visibilitychange", whenVisible)
    window.removeEventListener("focus", whenVisible)
  }
}
