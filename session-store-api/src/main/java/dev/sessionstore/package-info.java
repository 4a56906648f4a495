/**
 * The session-store API: {@link dev.sessionstore.SessionStore} and the aggregates it exposes, the immutable model
 * records, queries, pages and the {@link dev.sessionstore.SessionStoreException} hierarchy. Its one runtime
 * dependency is Jackson Databind, the library of its JSON documents ({@link dev.sessionstore.Json}).
 */
package dev.sessionstore;
