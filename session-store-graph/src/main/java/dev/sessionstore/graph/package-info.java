/**
 * Checkpoints of agent-graph threads on any {@link dev.sessionstore.SessionStore}, independent of the graph runtime:
 * {@link dev.sessionstore.graph.GraphThreads} maps a thread to a session and a checkpoint to an event of its log, and
 * the runtimes' savers (LangGraph4j, Spring AI Alibaba Graph) only map their checkpoint type to a
 * {@link dev.sessionstore.graph.GraphCheckpoint} and back.
 */
package dev.sessionstore.graph;
