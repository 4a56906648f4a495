package dev.sessionstore.cli;

import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code events --follow}: prints a session's events as {@code events} would, then every matching event appended
 * afterwards, by this or any other process the store can see, as it lands; it ends when the process is stopped.
 *
 * <p>Following is a loop of waiting reads ({@link EventLog#await}) after the last seq printed, each ending after at
 * most {@link #CHECK_INTERVAL}; after every read, before anything is printed, {@link FollowedHistory#check} makes sure
 * the page still belongs to the history printed so far. When it does not (the session was deleted, replaced by a new
 * session with its id, or its log was cut), the follower says so in one line on standard error
 * ({@code session-store: session <id> was ...}) and starts over on the new history: it prints what {@code events}
 * would print now (the header again in a table; with {@code --json} the seqs start again). Two histories are never
 * mixed without that line between them. A session that does not exist (yet, or any more) is waited for, by id or
 * name, until it does.
 */
final class Follower {

  /** The longest a waiting read waits before the follower checks the session again. */
  static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);

  private final SessionStore store;
  private final String idOrName;
  private final EventQuery firstPage;
  private final EventQuery filters;
  private final EventLines lines;
  private final PrintStream notices;

  /**
   * @param firstPage what to print first on each history, as {@code events} without {@code --follow} would
   * @param filters   what to print afterwards: the first page's filters without seq bounds or limit
   * @param notices   where the one-line notices go (standard error)
   */
  Follower(SessionStore store, String idOrName, EventQuery firstPage, EventQuery filters, EventLines lines,
      PrintStream notices) {
    this.store = store;
    this.idOrName = idOrName;
    this.firstPage = firstPage;
    this.filters = filters;
    this.lines = lines;
    this.notices = notices;
  }

  /** Follows until the thread is interrupted or the store fails. */
  void run() {
    boolean waitingSaid = false;
    while (!Thread.currentThread().isInterrupted()) {
      Optional<Session> session = lookUp();
      if (session.isEmpty()) {
        if (!waitingSaid) {
          notice("no session with id or name \"" + idOrName + "\" yet; waiting for it to be created");
          waitingSaid = true;
        }
        store.events().await(idOrName, EventQuery.all(), CHECK_INTERVAL); // wakes on a first append to this id
        continue;
      }
      Optional<HistoryChange> change = follow(new FollowedHistory(store, session.get()));
      if (change.isEmpty()) {
        return;
      }
      notice(change.get().notice());
      lines.startOver();
      waitingSaid = change.get().kind() == HistoryChange.Kind.DELETED;
    }
  }

  /** Prints one history until it changes; returns the change, or empty when interrupted. */
  private Optional<HistoryChange> follow(FollowedHistory history) {
    EventPage page = store.events().read(history.sessionId(), firstPage);
    long cursor = firstPage.after();
    while (true) {
      Optional<HistoryChange> change = history.check(page);
      if (change.isPresent()) {
        return change;
      }
      if (!page.isEmpty()) {
        lines.print(page.items());
        cursor = page.items().get(page.items().size() - 1).seq();
      }
      if (Thread.currentThread().isInterrupted()) {
        return Optional.empty();
      }
      page = store.events().await(history.sessionId(), filters.after(cursor), CHECK_INTERVAL);
    }
  }

  private Optional<Session> lookUp() {
    return store.sessions().find(idOrName).or(() -> store.sessions().findByName(idOrName));
  }

  private void notice(String text) {
    notices.println("session-store: " + text);
    notices.flush();
  }
}
