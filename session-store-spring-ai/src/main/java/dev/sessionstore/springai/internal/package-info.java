/**
 * Internal: the JSON mapping of Spring AI messages behind {@link dev.sessionstore.springai.SessionStoreChatMemoryRepository}
 * and, on the 2.0 line, behind session-store-spring-ai-session's {@code SessionRepository} (one codec for both).
 * Unsupported API: may change in any release.
 */
package dev.sessionstore.springai.internal;
