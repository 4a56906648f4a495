package dev.sessionstore.chat.internal;

import java.util.List;
import java.util.Set;

/**
 * What a caller's list asks of a conversation's window, relative to the window the caller saw: which of the messages
 * it saw it keeps (a prefix of the list), which it removes (the log is cut at them), and the messages it adds after
 * the kept ones. A message it saw and neither keeps nor removes is evicted: it leaves the window and stays in the log.
 * Messages the caller did not see (written by others since) are none of these, and stay as they are.
 *
 * @param seen    the ids of the message events of the window the caller saw
 * @param kept    the ids of the seen messages the list keeps, in list order: the list's first {@code kept.size()}
 *                elements
 * @param removed the ids of the seen messages the list removes
 * @param added   the list's other elements, appended in list order
 * @param <M>     the framework's message type
 */
public record Intent<M>(Set<String> seen, List<String> kept, Set<String> removed, List<Added<M>> added) {

  public Intent {
    seen = Set.copyOf(seen);
    kept = List.copyOf(kept);
    removed = Set.copyOf(removed);
    added = List.copyOf(added);
  }

  /**
   * A message the list adds.
   *
   * @param listIndex its index in the list
   * @param message   the message
   * @param <M>       the framework's message type
   */
  public record Added<M>(int listIndex, M message) {
  }
}
