/**
 * LangGraph4j on session-store: {@link dev.sessionstore.langgraph4j.SessionStoreSaver}, a checkpoint saver over any
 * {@link dev.sessionstore.SessionStore} that stays right with many instances.
 */
package dev.sessionstore.langgraph4j;
