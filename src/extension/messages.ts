/** Internal messages between the extension's own pages and its service worker. */

export const SELECTED_IMAGE_KEY = "selectedImage"

/** The image the user picked with "Analyse image", kept in session storage for the side panel. */
export interface SelectedImage {
  url: string
  tabId: number
  pageUrl?: string
  selectedAt: number
}

/** Sent by the extension's own pages (popup, side panel) to the service worker: sign out here and on the site. */
export const SIGN_OUT_REQUEST = "SIGN_OUT_REQUEST"

export interface SignOutRequest {
  type: typeof SIGN_OUT_REQUEST
}
