/**
 * Internal: the JSON mapping of Spring AI messages behind {@link dev.sessionstore.springai.SessionStoreChatMemoryRepository}.
 * Unsupported API: may change in any release.
 */
package dev.sessionstore.springai.internal;
