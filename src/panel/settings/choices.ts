/**
 * A fixed list of choices the panel offers, written once as { choice: "the words shown for it" } in the order
 * shown: this answers the choices themselves, as a tuple for zod enums and for listing them in a select.
 */
export function choicesOf<const Choice extends string>(labels: Record<Choice, string>): readonly [Choice, ...Choice[]] {
  return Object.keys(labels) as [Choice, ...Choice[]]
}
