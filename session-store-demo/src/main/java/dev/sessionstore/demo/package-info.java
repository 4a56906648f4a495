/**
 * A runnable tour of session-store: one scripted agent conversation on the in-memory store, printed step by step.
 * Start with {@link dev.sessionstore.demo.ConversationDemo}.
 */
package dev.sessionstore.demo;
