import { render, screen, within } from "@testing-library/react"
import { describe, expect, it } from "vitest"

import { DailyFiguresTable } from "./DailyFiguresTable"
import { DataTable, type DataColumn } from "./DataTable"

interface Member {
  id: string
  name: string
  requests: number
}

const COLUMNS: readonly DataColumn<Member>[] = [
  { header: "Member", rowHeader: true, cell: (member) => member.name },
  { header: "This month", align: "end", from: "sm", cell: (member) => member.requests },
  { header: "Actions", headerHidden: true, cell: (member) => <button type="button">Remove {member.name}</button> }
]

const MEMBERS: Member[] = [
  { id: "1", name: "Ada", requests: 12 },
  { id: "2", name: "Grace", requests: 0 }
]

describe("the site's data table", () => {
  it("names itself by its caption, its columns by their headers and each row by its row header", () => {
    render(<DataTable caption="Members, with their requests" columns={COLUMNS} rows={MEMBERS} rowKey={(member) => member.id} empty="No members." />)
    const table = screen.getByRole("table", { name: "Members, with their requests" })
    expect(within(table).getAllByRole("columnheader").map((header) => header.textContent)).toEqual(["Member", "This month", "Actions"])
    expect(within(table).getByRole("columnheader", { name: "Actions" }).querySelector(".sr-only")).not.toBeNull()
    expect(within(table).getAllByRole("rowheader").map((cell) => cell.textContent)).toEqual(["Ada", "Grace"])
    const figure = within(table).getAllByRole("cell")[0]!
    expect(figure.textContent).toBe("12")
    expect(figure.className).toContain("text-right")
    expect(figure.className).toContain("hidden sm:table-cell")
  })

  it("says its empty text instead of an empty table", () => {
    render(<DataTable caption="Members" columns={COLUMNS} rows={[]} rowKey={(member) => member.id} empty="No members." />)
    expect(screen.queryByRole("table")).toBeNull()
    expect(screen.getByText("No members.")).toBeTruthy()
  })

  it("scrolls sideways in a region the keyboard can focus, named as asked", () => {
    render(<DataTable caption="Deliveries" columns={COLUMNS} rows={MEMBERS} rowKey={(member) => member.id} empty="" scroll="sideways" regionLabel="Deliveries to https://example.com" />)
    expect(screen.getByRole("region", { name: "Deliveries to https://example.com" }).tabIndex).toBe(0)
  })
})

describe("the daily figures table", () => {
  const days = [
    { day: "2030-01-01", calls: 3 },
    { day: "2030-01-02", calls: 0 }
  ]

  it("shows a row a day, newest first, with the range's totals, in a region named by its caption", () => {
    render(<DailyFiguresTable caption="Calls per day" days={days} dateOf={(day) => day.day} figures={[{ label: "Calls", of: (day) => day.calls, total: 3 }]} />)
    const region = screen.getByRole("region", { name: "Calls per day, newest day first" })
    const rows = within(region).getAllByRole("row").map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent))
    expect(rows).toEqual([
      ["Day", "Calls"],
      ["Wed 2 Jan", "0"],
      ["Tue 1 Jan", "3"],
      ["Total", "3"]
    ])
  })
})
