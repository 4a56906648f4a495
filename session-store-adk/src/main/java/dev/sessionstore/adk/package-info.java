/**
 * Google ADK for Java on session-store: {@link dev.sessionstore.adk.SessionStoreSessionService}, a durable,
 * concurrency-safe {@code BaseSessionService} over any {@link dev.sessionstore.SessionStore}.
 */
package dev.sessionstore.adk;
