/**
 * The site's one data table: a caption for screen readers, one header style, a row per item with a cell per column,
 * a totals row when given, and what to say when there is no row. A column can name its row (<th scope="row">), line
 * its figures up at the end, or show only from a width up, the row's first cell then carrying what matters.
 */
import { useId, type ReactNode } from "react"

export interface DataColumn<Row> {
  /** The header's text; also the column's key, so unique in its table. */
  header: string
  /** The header is read by screen readers only (a column of buttons). */
  headerHidden?: boolean
  cell: (row: Row) => ReactNode
  /** "end" for figures: right-aligned, in tabular digits; text starts at the start (the default). */
  align?: "start" | "end"
  /** Shown from this width up only (Tailwind's breakpoints); below it the row's first cell says what matters. */
  from?: "sm" | "md"
  /** The cell names its row (<th scope="row">): a member, a post, a day. */
  rowHeader?: boolean
  /** Stays in view while the table scrolls sideways (the day of a table of daily figures). */
  sticky?: boolean
  /** More classes for the column's body cells ("whitespace-nowrap", "font-mono", a zero's grey). */
  cellClassName?: string | ((row: Row) => string)
}

export interface DataTableProps<Row> {
  /** What the table holds and in what order, for screen readers ("Accounts, newest accounts first"). */
  caption: string
  columns: readonly DataColumn<Row>[]
  rows: readonly Row[]
  rowKey: (row: Row) => string
  /** Said instead of the table when there is no row. */
  empty: ReactNode
  /** A totals row under the rows, a cell per column; the first names the row. */
  totals?: readonly ReactNode[]
  /** A row's own look (a failed payment's red). */
  rowClassName?: (row: Row) => string
  /**
   * "sideways": wider than a phone, it scrolls sideways in a region the keyboard can focus, named `regionLabel` or
   * else by the caption; "both": in a framed region at most 24rem tall, its header staying in view.
   */
  scroll?: "sideways" | "both"
  regionLabel?: string
  /** Smaller type on a phone, for tables of many figures. */
  compact?: boolean
}

const CELL = "px-3 py-2"
const SHOWN_FROM = { sm: "hidden sm:table-cell", md: "hidden md:table-cell" } as const
/** The one header style of the site's tables. */
const HEADER = "bg-gray-50 text-xs uppercase tracking-wide text-gray-600"

/** A cell's classes: padding, alignment, the width it shows from, and a sticky cell's own background (`background`). */
function cellClass<Row>(column: DataColumn<Row>, background: string, extra = ""): string {
  return [
    CELL,
    column.align === "end" ? "text-right tabular-nums" : "text-left",
    column.from ? SHOWN_FROM[column.from] : "",
    column.sticky ? `sticky left-0 ${background}` : "",
    extra
  ]
    .filter(Boolean)
    .join(" ")
}

export function DataTable<Row>({ caption, columns, rows, rowKey, empty, totals, rowClassName, scroll, regionLabel, compact = false }: DataTableProps<Row>) {
  const captionId = useId()
  if (rows.length === 0) return <p className="p-6 text-center text-sm text-gray-600">{empty}</p>
  const table = (
    <table className={`w-full ${compact ? "text-xs sm:text-sm" : "text-sm"}`}>
      <caption id={captionId} className="sr-only">
        {caption}
      </caption>
      <thead className={`${HEADER} ${scroll === "both" ? "sticky top-0 z-10" : ""}`}>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col" className={cellClass(column, "bg-gray-50", "font-medium")}>
              {column.headerHidden ? <span className="sr-only">{column.header}</span> : column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-gray-100">
        {rows.map((row) => (
          <tr key={rowKey(row)} className={`align-top ${rowClassName?.(row) ?? ""}`}>
            {columns.map((column) => {
              const extra = typeof column.cellClassName === "function" ? column.cellClassName(row) : (column.cellClassName ?? "")
              const className = cellClass(column, "bg-white", extra)
              return column.rowHeader ? (
                <th key={column.header} scope="row" className={`${className} font-normal`}>
                  {column.cell(row)}
                </th>
              ) : (
                <td key={column.header} className={className}>
                  {column.cell(row)}
                </td>
              )
            })}
          </tr>
        ))}
      </tbody>
      {totals && (
        <tfoot className="border-t border-gray-200 bg-gray-50 font-semibold">
          <tr>
            {columns.map((column, index) =>
              index === 0 ? (
                <th key={column.header} scope="row" className={cellClass(column, "bg-gray-50")}>
                  {totals[index]}
                </th>
              ) : (
                <td key={column.header} className={cellClass(column, "bg-gray-50")}>
                  {totals[index]}
                </td>
              )
            )}
          </tr>
        </tfoot>
      )}
    </table>
  )
  if (!scroll) return <div className="overflow-x-auto">{table}</div>
  return (
    // Focusable, so that a keyboard can scroll it too.
    <div
      role="region"
      aria-label={regionLabel}
      aria-labelledby={regionLabel ? undefined : captionId}
      tabIndex={0}
      className={`focus-ring ${scroll === "both" ? "max-h-96 overflow-auto rounded-xl border border-gray-200" : "overflow-x-auto"}`}
    >
      {table}
    </div>
  )
}
