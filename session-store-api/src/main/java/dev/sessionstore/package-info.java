/**
 * The session-store API: {@link dev.sessionstore.SessionStore} and the aggregates it exposes, the immutable model
 * records, queries, pages and the {@link dev.sessionstore.SessionStoreException} hierarchy. No runtime dependencies.
 */
package dev.sessionstore;
