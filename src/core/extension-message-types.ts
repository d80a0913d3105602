/**
 * The names of the site ↔ extension protocol (see ./extension-messages for the messages themselves), without
 * their schemas: the Firefox site bridge, a content script, needs the names and must not carry a validation library.
 */
export const WEBSITE_AUTH_LOGIN = "WEBSITE_AUTH_LOGIN"
export const WEBSITE_AUTH_LOGOUT = "WEBSITE_AUTH_LOGOUT"
export const WEBSITE_AUTH_SYNC = "WEBSITE_AUTH_SYNC"
/** Site → extension messages, the ones the extension acts on. */
export const KNOWN_WEBSITE_MESSAGE_TYPES = [WEBSITE_AUTH_LOGIN, WEBSITE_AUTH_LOGOUT, WEBSITE_AUTH_SYNC] as const

export const WEBSITE_MESSAGE_PREFIX = "WEBSITE_"
export const EXTENSION_MESSAGE_PREFIX = "EXTENSION_"
export const EXTENSION_AUTH_STATUS_REQUEST = "EXTENSION_AUTH_STATUS_REQUEST"
export const EXTENSION_LOGOUT_REQUEST = "EXTENSION_LOGOUT_REQUEST"

/**
 * Name of the long-lived port the site opens to the extension (chrome.runtime.connect): the extension sends
 * its EXTENSION_* requests over it, since a web page cannot receive chrome.runtime messages otherwise, and the
 * site answers each one on the same port with an ExtensionAnswer.
 */
export const SITE_LINK_PORT_NAME = "image-query-ai-site"

/**
 * Firefox has no externally_connectable: there the extension's site bridge, a content script on the site's pages,
 * gives the page this object on its window (`sendMessage(message)`, `connect(name)`;
 * src/extension/site-link/site-bridge.ts).
 */
export const SITE_BRIDGE_GLOBAL = "imageQueryAiBridge"

/** Incoming types the site knows how to answer. */
export const KNOWN_EXTENSION_MESSAGE_TYPES = [EXTENSION_AUTH_STATUS_REQUEST, EXTENSION_LOGOUT_REQUEST] as const
export type KnownExtensionMessageType = (typeof KNOWN_EXTENSION_MESSAGE_TYPES)[number]
