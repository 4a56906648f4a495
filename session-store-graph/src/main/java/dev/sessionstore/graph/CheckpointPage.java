package dev.sessionstore.graph;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One page of a thread's checkpoints, newest first (by seq: the order of the log).
 *
 * @param items      the checkpoints, newest first
 * @param nextBefore the seq to page on from ({@link GraphThreads#page}'s {@code beforeSeq}), present only when older
 *                   checkpoints remain
 */
public record CheckpointPage(List<StoredCheckpoint> items, OptionalLong nextBefore) {

  /** Copies the members. @throws NullPointerException if a member is null */
  public CheckpointPage {
    items = List.copyOf(items);
    Objects.requireNonNull(nextBefore, "nextBefore");
  }
}
