/**
 * Spring AI Alibaba Graph on session-store: {@link dev.sessionstore.springai.alibaba.SessionStoreCheckpointSaver},
 * the runtime's {@code BaseCheckpointSaver} on any {@link dev.sessionstore.SessionStore}, built on the shared graph
 * core ({@link dev.sessionstore.graph.GraphThreads}).
 */
package dev.sessionstore.springai.alibaba;
