/**
 * Google ADK for Java on session-store: {@link dev.sessionstore.adk.SessionStoreSessionService}, a durable,
 * concurrency-safe {@code BaseSessionService} over any {@link dev.sessionstore.SessionStore}, and
 * {@link dev.sessionstore.adk.SessionStoreMemoryService}, a {@code BaseMemoryService} on the store's search.
 */
package dev.sessionstore.adk;
