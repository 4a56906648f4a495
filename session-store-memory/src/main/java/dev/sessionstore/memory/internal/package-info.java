/**
 * The in-memory adapter's implementation. Unsupported: nothing here is API, and it may change in any release. Build
 * a store with {@link dev.sessionstore.memory.InMemorySessionStore#builder()}.
 */
package dev.sessionstore.memory.internal;
