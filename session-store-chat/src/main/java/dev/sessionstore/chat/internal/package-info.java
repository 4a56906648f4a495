/**
 * Internal: the window state, the diff and the identity tags behind {@link dev.sessionstore.chat.ChatLog}.
 * Unsupported API: may change in any release.
 */
package dev.sessionstore.chat.internal;
