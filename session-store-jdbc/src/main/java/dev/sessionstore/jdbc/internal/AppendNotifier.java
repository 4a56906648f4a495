package dev.sessionstore.jdbc.internal;

import java.util.Optional;

/**
 * Announces a store instance's committed appends (also resolutions and expiries that end a tool-call wait): to its
 * own waiting reads at once, and, where the dialect notifies and notification is on, to every other instance through
 * a {@link NotificationSender}. Without one, waiting reads of other instances find the appends by polling. Appends
 * never wait for an announcement and never fail because of one. Thread-safe.
 */
final class AppendNotifier implements AutoCloseable {

  private final SessionWaiters waiters;
  private final Optional<NotificationSender> sender;

  AppendNotifier(SessionWaiters waiters, Optional<NotificationSender> sender) {
    this.waiters = waiters;
    this.sender = sender;
  }

  /**
   * Announces that an append to {@code sessionId} committed (or found its events stored already, in case the
   * process that stored them stopped before announcing them): wakes this instance's waiting reads of the session and
   * has the other instances notified soon, without waiting.
   */
  void appended(String sessionId) {
    waiters.wakeAfterCommit(sessionId);
    sender.ifPresent(notifications -> notifications.send(SessionWaiters.wakeKey(sessionId)));
  }

  /** Sends what is pending to the other instances and stops; later appends wake this instance's waiters only. */
  @Override
  public void close() {
    sender.ifPresent(NotificationSender::close);
  }
}
