/**
 * Internal: the event mapping of LangChain4j messages and the default executor behind
 * {@link dev.sessionstore.langchain4j.SessionStoreChatMemoryStore}. Unsupported API: may change in any release.
 */
package dev.sessionstore.langchain4j.internal;
