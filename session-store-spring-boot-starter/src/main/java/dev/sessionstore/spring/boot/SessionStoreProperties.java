package dev.sessionstore.spring.boot;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStatus;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code session-store.*} properties. Values are checked when the store is built, at startup: a bad one fails
 * the context with a message naming the property.
 *
 * @param type          which store to build when the application defines none: {@code auto} (default) takes the
 *                      application's {@code DataSource} when there is one, else a SQLite file; {@code jdbc} requires
 *                      the {@code DataSource}; {@code sqlite} always uses the file; {@code memory} keeps everything
 *                      in memory, lost at shutdown
 * @param schema        the PostgreSQL schema of the tables; default {@code public} (ignored on SQLite)
 * @param tablePrefix   the prefix of every table name; default {@code session_store_}
 * @param notifications whether appends wake other instances' waiting reads through PostgreSQL {@code NOTIFY};
 *                      default {@code true}
 * @param retryTimeout  how long a call retries after a lost connection; default 10 seconds, at most 10 minutes
 * @param sqlite        the SQLite file used when there is no {@code DataSource} (or {@code type=sqlite})
 * @param chatMemory    the Spring AI chat memory repository
 * @param retention     what the store removes by itself on a schedule; off unless a rule is set
 */
@ConfigurationProperties("session-store")
public record SessionStoreProperties(
    @DefaultValue("auto") Type type,
    String schema,
    String tablePrefix,
    @DefaultValue("true") boolean notifications,
    @DefaultValue("10s") Duration retryTimeout,
    @DefaultValue Sqlite sqlite,
    @DefaultValue ChatMemory chatMemory,
    @DefaultValue Retention retention) {

  /** Which store the auto-configuration builds. */
  public enum Type {
    /** The application's {@code DataSource} if there is one, else the SQLite file. */
    AUTO,
    /** The application's {@code DataSource}; startup fails without one. */
    JDBC,
    /** The SQLite file of {@code session-store.sqlite.path}. */
    SQLITE,
    /** In memory only: nothing survives a restart. */
    MEMORY
  }

  /**
   * The SQLite store.
   *
   * @param path the database file, created if missing; default {@code ./sessions.db}
   */
  public record Sqlite(@DefaultValue("./sessions.db") String path) {
  }

  /**
   * The chat memory repository.
   *
   * @param owner the owner name marking the conversations the repository writes and lists; default
   *              {@code spring-ai}
   */
  public record ChatMemory(@DefaultValue("spring-ai") String owner) {
  }

  /**
   * The retention policy the store the starter builds applies by itself, every {@code interval} from one interval
   * after startup until the context closes (see {@link dev.sessionstore.Retention}); off unless at least one rule
   * ({@code idle-for}, {@code keep-events}, {@code model-calls-older-than}) is set. A {@code SessionStore} bean of the
   * application's own is left as it is. Give every instance of an application the same values: on PostgreSQL each
   * session is handled by whichever instance comes first.
   *
   * @param idleFor             delete sessions with no write and no event for longer than this, with all they own
   *                            (e.g. {@code 30d})
   * @param statuses            with {@code idle-for}: only sessions in one of these statuses (e.g.
   *                            {@code completed,failed}); default any status
   * @param tenant              with {@code idle-for}: only sessions of this tenant; default every session
   * @param keepEvents          cut whole chapters, oldest first and never past the latest summary, of sessions holding
   *                            more events than this
   * @param modelCallsOlderThan remove model-call audit rows recorded longer ago than this (e.g. {@code 7d})
   * @param interval            how often the store applies the policy; default 10 minutes (JDBC stores: between 10 ms
   *                            and 1 hour)
   */
  public record Retention(
      Duration idleFor,
      Set<String> statuses,
      String tenant,
      Integer keepEvents,
      Duration modelCallsOlderThan,
      @DefaultValue("10m") Duration interval) {

    /**
     * The policy these properties describe, checked as {@link RetentionPolicy.Builder} checks it; empty when they set
     * no rule and no scope.
     *
     * @throws dev.sessionstore.InvalidArgumentException naming the policy member a value breaks (a negative age, an
     *                                                   event count below 1, a blank status or tenant, a scope without
     *                                                   {@code idle-for}); the auto-configuration reports it under the
     *                                                   property's name
     */
    public Optional<RetentionPolicy> policy() {
      boolean scoped = (statuses != null && !statuses.isEmpty()) || tenant != null;
      if (idleFor == null && keepEvents == null && modelCallsOlderThan == null && !scoped) {
        return Optional.empty();
      }
      RetentionPolicy.Builder policy = RetentionPolicy.builder();
      if (idleFor != null) {
        policy.deleteSessionsIdleFor(idleFor);
      }
      if (statuses != null && !statuses.isEmpty()) {
        policy.onlyStatuses(statuses.stream().map(SessionStatus::of).toArray(SessionStatus[]::new));
      }
      if (tenant != null) {
        policy.onlyTenant(tenant);
      }
      if (keepEvents != null) {
        policy.keepEventsPerSession(keepEvents);
      }
      if (modelCallsOlderThan != null) {
        policy.deleteModelCallsOlderThan(modelCallsOlderThan);
      }
      return Optional.of(policy.build());
    }
  }
}
