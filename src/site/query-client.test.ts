// @vitest-environment node
import { describe, expect, it } from "vitest"

import { createQueryClient } from "./query-client"

describe("the react-query client", () => {
  it("uses the data-fetching defaults", () => {
    expect(createQueryClient().getDefaultOptions().queries).toMatchObject({
      retry: 1,
      refetchOnWindowFocus: false,
      refetchOnMount: false,
      refetchOnReconnect: true,
      staleTime: 5 * 60 * 1000,
      gcTime: 10 * 60 * 1000
    })
  })
})
