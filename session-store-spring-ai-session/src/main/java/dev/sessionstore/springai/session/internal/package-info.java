/**
 * Internal: how {@link dev.sessionstore.springai.session.SessionStoreSessionRepository} maps spring-ai-session's
 * sessions, events and compactions onto a {@link dev.sessionstore.SessionStore}. Unsupported API: may change in any
 * release.
 */
package dev.sessionstore.springai.session.internal;
