import { useQuery } from "@tanstack/react-query"

import { loadFirebaseSetup } from "~site-session/firebase-setup"

/** The server's Firebase settings for the Google buttons; null data means Google sign-in is not configured. */
export const useFirebaseSetup = () => useQuery({ queryKey: ["firebase-config"], queryFn: loadFirebaseSetup, staleTime: Infinity })
